package dev.sopline.worker;

import dev.sopline.schemas.kafka.KafkaClientSecurity;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a Kafka worker checks before it subscribes, so that a wrong setup is logged as what it is instead of a worker
 * that waits in silence: the broker cannot be reached (it retries, and says so every {@link #REPEAT_EVERY}), or a
 * team's topic does not exist yet (no process with a step of that namespace is registered; the worker picks the
 * topic up once it is).
 */
final class KafkaPreflight {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaPreflight.class);
    private static final Duration ATTEMPT_TIMEOUT = Duration.ofSeconds(5);
    private static final Duration REPEAT_EVERY = Duration.ofSeconds(30);

    private final String bootstrapServers;
    private final String workerId;

    KafkaPreflight(String bootstrapServers, String workerId) {
        this.bootstrapServers = bootstrapServers;
        this.workerId = workerId;
    }

    /** Waits until the broker answers, or {@code running} turns false; true once it answered. */
    boolean awaitBroker(List<String> topics, BooleanSupplier running) {
        long lastReported = 0;
        try (Admin admin = Admin.create(KafkaClientSecurity.secured(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) ATTEMPT_TIMEOUT.toMillis(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) ATTEMPT_TIMEOUT.toMillis())))) {
            while (running.getAsBoolean()) {
                try {
                    Set<String> existing = admin.listTopics().names().get(ATTEMPT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
                    LOG.info("Worker {} connected to Kafka at {}", workerId, bootstrapServers);
                    reportMissing(topics, existing);
                    return true;
                } catch (ExecutionException | TimeoutException e) {
                    if (System.nanoTime() - lastReported > REPEAT_EVERY.toNanos() || lastReported == 0) {
                        LOG.error("Worker {} cannot reach the Kafka broker at {} ({}); retrying. Check the bootstrap servers and that "
                                + "the broker is up and reachable from here", workerId, bootstrapServers, reason(e));
                        lastReported = System.nanoTime();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
        }
        return false;
    }

    private void reportMissing(List<String> topics, Set<String> existing) {
        for (String topic : topics) {
            if (!existing.contains(topic)) {
                LOG.warn("Worker {}: topic {} does not exist yet, so no step of its team has been handed out: no process with a "
                        + "step whose run is in that namespace is registered (or the engine has not started), or this worker's "
                        + "credentials do not let it see the topic. The worker reads it within seconds of its creation", workerId, topic);
            }
        }
    }

    private static String reason(Exception e) {
        if (e instanceof TimeoutException) {
            return "no answer within " + ATTEMPT_TIMEOUT.toSeconds() + " s";
        }
        Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
        return cause.getMessage() != null ? cause.getMessage() : cause.getClass().getSimpleName();
    }
}
