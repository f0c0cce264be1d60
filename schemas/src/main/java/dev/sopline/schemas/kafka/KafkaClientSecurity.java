package dev.sopline.schemas.kafka;

import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * How every Kafka client of a process authenticates to the broker (SASL, TLS), read from its environment, so that a
 * shared broker's ACLs can tell the platform from each team's worker. The engine, the gateway, the judgment worker and
 * SDK workers pass each client configuration they build through {@link #secured(Map)}.
 *
 * <p>The variables follow the convention of the {@code apache/kafka} image, with the prefix {@code SOP_KAFKA_}: drop
 * the prefix, lower-case, and {@code _} becomes {@code .}; so {@code SOP_KAFKA_SECURITY_PROTOCOL} is
 * {@code security.protocol}, {@code SOP_KAFKA_SASL_MECHANISM} is {@code sasl.mechanism} and
 * {@code SOP_KAFKA_SASL_JAAS_CONFIG} is {@code sasl.jaas.config}. Only {@code security.*}, {@code sasl.*} and
 * {@code ssl.*} settings are taken: the rest of a client's configuration (exactly-once, acks, isolation) is the
 * platform's to choose, and the other {@code SOP_KAFKA_} variables ({@code SOP_KAFKA_PORT},
 * {@code SOP_KAFKA_REPLICATION_FACTOR}) are platform settings, not client ones.
 *
 * <p>Values are never logged: {@link #toString()} names the settings only, and Kafka's own listing of a client's
 * configuration at start shows {@code sasl.jaas.config} and the {@code ssl.*} passwords as {@code [hidden]}, since
 * they are of its password type.
 */
public final class KafkaClientSecurity {

    static final String PREFIX = "SOP_KAFKA_";
    private static final List<String> FAMILIES = List.of("SECURITY_", "SASL_", "SSL_");
    private static final KafkaClientSecurity PROCESS = fromEnvironment(System.getenv());

    private final Map<String, String> settings;

    private KafkaClientSecurity(Map<String, String> settings) {
        this.settings = Collections.unmodifiableMap(settings);
    }

    /** The settings {@code env} holds; blank variables count as unset. */
    public static KafkaClientSecurity fromEnvironment(Map<String, String> env) {
        Map<String, String> settings = new TreeMap<>();
        env.forEach((name, value) -> {
            if (name.startsWith(PREFIX) && value != null && !value.isBlank()) {
                String rest = name.substring(PREFIX.length());
                if (FAMILIES.stream().anyMatch(rest::startsWith)) {
                    settings.put(rest.toLowerCase(Locale.ROOT).replace('_', '.'), value.trim());
                }
            }
        });
        return new KafkaClientSecurity(settings);
    }

    /** The settings of this process's environment. */
    public static KafkaClientSecurity ofProcess() {
        return PROCESS;
    }

    /** {@code config} with this process's security settings added: the one call wherever a Kafka client is built. */
    public static Map<String, Object> secured(Map<String, ?> config) {
        return PROCESS.applyTo(config);
    }

    /** A copy of {@code config} with these settings added. */
    public Map<String, Object> applyTo(Map<String, ?> config) {
        Map<String, Object> secured = new HashMap<>(config);
        secured.putAll(settings);
        return secured;
    }

    /** Adds these settings to {@code properties} (a Kafka Streams configuration passes them to each of its clients). */
    public Properties applyTo(Properties properties) {
        properties.putAll(settings);
        return properties;
    }

    /** Kafka client property names and their values. */
    public Map<String, String> settings() {
        return settings;
    }

    public boolean isEmpty() {
        return settings.isEmpty();
    }

    /** Names the settings, never their values: a JAAS configuration holds a password. */
    @Override
    public String toString() {
        return "KafkaClientSecurity" + settings.keySet();
    }
}
