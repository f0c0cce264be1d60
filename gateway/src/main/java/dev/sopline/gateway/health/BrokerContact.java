package dev.sopline.gateway.health;

import dev.sopline.schemas.kafka.KafkaClientSecurity;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * When the gateway last heard from the Kafka cluster: every {@code every} it asks for the cluster's brokers, and it
 * counts as in contact while the last answer is younger than {@code patience}. Kafka's clients retry by themselves
 * and never say that the broker is gone, so without this every reader stayed "working" through an outage, and health
 * said UP while no start, submit or decision could be made.
 */
public final class BrokerContact implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(BrokerContact.class);

    private final Admin admin;
    private final Duration patience;
    private final Clock clock;
    private final ScheduledExecutorService asker;
    private volatile Instant lastAnswer;
    private volatile boolean lost;

    public BrokerContact(String bootstrapServers, Duration every, Duration patience) {
        this.patience = patience;
        this.clock = Clock.systemUTC();
        this.admin = Admin.create(KafkaClientSecurity.secured(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                AdminClientConfig.CLIENT_ID_CONFIG, "sop-gateway-broker-contact")));
        // Counted from the start, so that a gateway starting beside its broker is given the same patience.
        this.lastAnswer = clock.instant();
        this.asker = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "broker-contact");
            thread.setDaemon(true);
            return thread;
        });
        asker.scheduleWithFixedDelay(() -> ask(every), 0, every.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void ask(Duration every) {
        try {
            admin.describeCluster(new DescribeClusterOptions().timeoutMs((int) every.toMillis())).nodes()
                    .get(every.toMillis() * 2, TimeUnit.MILLISECONDS);
            lastAnswer = clock.instant();
            if (lost) {
                lost = false;
                LOG.info("The Kafka cluster answers again");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            if (!inContact() && !lost) {
                lost = true;
                LOG.warn("No answer from the Kafka cluster for {} s: health is DOWN until it answers ({})",
                        Duration.between(lastAnswer, clock.instant()).toSeconds(), e.toString());
            }
        }
    }

    public boolean inContact() {
        return Duration.between(lastAnswer, clock.instant()).compareTo(patience) <= 0;
    }

    public Instant lastAnswer() {
        return lastAnswer;
    }

    @Override
    public void close() {
        asker.shutdownNow();
        admin.close(Duration.ofSeconds(1));
    }
}
