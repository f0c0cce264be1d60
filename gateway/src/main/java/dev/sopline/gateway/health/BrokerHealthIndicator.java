package dev.sopline.gateway.health;

import dev.sopline.gateway.config.SopProperties;
import java.time.Duration;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

/**
 * DOWN while the Kafka cluster has not answered for {@value #PATIENCE_SECONDS} s (CONTRACT section 8: health says
 * whether the platform can serve). Every write and every decision goes through the cluster, and reads alone are not
 * serving: an orchestrator should send clients elsewhere.
 */
@Component("broker")
public class BrokerHealthIndicator implements HealthIndicator, DisposableBean {

    static final long PATIENCE_SECONDS = 15;

    private final BrokerContact contact;

    @Autowired
    public BrokerHealthIndicator(SopProperties properties) {
        this(new BrokerContact(properties.kafka().bootstrapServers(), Duration.ofSeconds(5), Duration.ofSeconds(PATIENCE_SECONDS)));
    }

    BrokerHealthIndicator(BrokerContact contact) {
        this.contact = contact;
    }

    @Override
    public Health health() {
        return (contact.inContact() ? Health.up() : Health.down()).withDetail("last_answer", contact.lastAnswer().toString()).build();
    }

    @Override
    public void destroy() {
        contact.close();
    }
}
