package dev.sopline.gateway.config;

import java.nio.file.Path;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The gateway's settings, bound from the environment variables of CONTRACT section 1 in
 * {@code application.properties}.
 *
 * @param kafka where Kafka is
 * @param engine where engine state is read
 * @param dataDir engine state and the bootstrap-token file
 * @param bootstrapToken a token that must exist in workspace {@code default}, or empty to generate one
 * @param publicUrl base of callback URLs, or empty to use the request's
 * @param rateLimit per-token request budget
 * @param commandTimeout how long a write waits for the engine's reply before answering 503
 * @param requestReadTimeout how long a request body may take to arrive in full (CONTRACT section 8)
 * @param webhook outbound webhook delivery
 */
@ConfigurationProperties("sop")
public record SopProperties(Kafka kafka, Engine engine, Path dataDir, String bootstrapToken, String publicUrl, RateLimit rateLimit,
                            Duration commandTimeout, Duration requestReadTimeout, Webhook webhook) {

    public SopProperties {
        requestReadTimeout = requestReadTimeout == null ? Duration.ofSeconds(10) : requestReadTimeout;
        webhook = webhook == null ? new Webhook(false) : webhook;
    }

    /**
     * True where the gateway runs an engine replica in its JVM (no query URLs are configured). Its data directory then
     * holds the engine's state, which no other process may share, so ids kept there are this process's alone.
     */
    public boolean runsEngineHere() {
        return engine == null || engine.replicaUrls().isEmpty();
    }

    public record Kafka(String bootstrapServers) {}

    /**
     * Where engine state is read. Both settings take one query URL or a comma-separated list; the gateway reads
     * through every replica listed and those the replicas' group names, so it serves while any of them can. Both
     * empty: an engine runs in the gateway's JVM.
     *
     * @param queryUrl {@code SOP_ENGINE_QUERY_URL}, the older, single-replica name of the setting
     * @param queryUrls {@code SOP_ENGINE_QUERY_URLS}, the engine replicas' query endpoints
     * @param secret {@code SOP_ENGINE_SECRET}, as the replicas have it; empty where they keep it in their topic
     */
    public record Engine(String queryUrl, String queryUrls, String secret) {

        /** Every configured replica's query URL, the list first; empty to run an engine in the gateway's JVM. */
        public java.util.List<String> replicaUrls() {
            java.util.LinkedHashSet<String> urls = new java.util.LinkedHashSet<>(dev.sopline.engine.api.query.ReplicaSetEngineReader.parse(queryUrls));
            urls.addAll(dev.sopline.engine.api.query.ReplicaSetEngineReader.parse(queryUrl));
            return java.util.List.copyOf(urls);
        }

        @Override
        public String toString() {
            return "Engine[queryUrl=" + queryUrl + ", queryUrls=" + queryUrls + ", secret=" + (secret == null || secret.isBlank() ? "unset" : "set") + "]";
        }
    }

    public record RateLimit(int perSecond, int burst) {}

    /** @param allowPrivate deliver to loopback, private and link-local addresses too (development and tests only) */
    public record Webhook(boolean allowPrivate) {}
}
