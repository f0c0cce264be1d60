package dev.sopline.standalone;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.SmartLifecycle;

/**
 * Lets Spring build the gateway while the embedded broker starts, and holds back every part that talks to Kafka until
 * the broker is up: a lifecycle bean of the earliest phase, so it starts (waits) before the engine, the readers and
 * the web server. A broker that fails to start fails the start of the whole platform with its cause.
 */
final class BrokerReadiness implements ApplicationContextInitializer<ConfigurableApplicationContext> {

    private static final Logger LOG = LoggerFactory.getLogger(BrokerReadiness.class);

    private final CompletableFuture<EmbeddedBroker> broker;
    private final Path dataDir;

    BrokerReadiness(CompletableFuture<EmbeddedBroker> broker, Path dataDir) {
        this.broker = broker;
        this.dataDir = dataDir;
    }

    @Override
    public void initialize(ConfigurableApplicationContext context) {
        context.getBeanFactory().registerSingleton("embeddedBrokerReady", new AwaitBroker());
    }

    private final class AwaitBroker implements SmartLifecycle {

        private volatile boolean running;

        @Override
        public void start() {
            EmbeddedBroker started;
            try {
                started = broker.join();
            } catch (CompletionException e) {
                throw new IllegalStateException("The embedded Kafka broker did not start: " + e.getCause(), e.getCause());
            }
            LOG.info("Embedded Kafka broker listening on {}, data in {}", started.bootstrapServers(), dataDir);
            running = true;
        }

        @Override
        public void stop() {
            // The broker is stopped last, by the launcher's shutdown sequence, once everything using it has stopped.
            running = false;
        }

        @Override
        public boolean isRunning() {
            return running;
        }

        @Override
        public int getPhase() {
            return Integer.MIN_VALUE;
        }
    }
}
