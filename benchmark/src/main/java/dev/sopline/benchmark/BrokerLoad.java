package dev.sopline.benchmark;

import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What one instance cost the broker, in counts rather than CPU: requests by kind, records and bytes taken in. The
 * broker's CPU follows its requests (docs/decisions.md, "What the broker's CPU follows"), and counts swing far less
 * with the host's speed than CPU-seconds do, so this line is how two builds' broker work compares on a noisy host.
 */
final class BrokerLoad {

    /** Kinds Kafka also counts under {@code Fetch}: adding them would count each fetch twice. */
    private static final Set<String> FETCH_SUBKINDS = Set.of("FetchConsumer", "FetchFollower");

    private BrokerLoad() {}

    /**
     * One line, e.g. {@code 10.4 requests (5.5 produce, 2.7 fetch, 1.4 adding partitions to transactions), 50.2
     * records, 18.0 KB}.
     *
     * @param requests requests per instance by kind, as {@link KafkaMetrics#perInstance} gives them
     * @param in       records and bytes taken in per instance, keyed {@code records <topic>} and {@code bytes <topic>}
     */
    static String perInstance(Map<String, Double> requests, Map<String, Double> in) {
        double all = requests.entrySet().stream().filter(kind -> !FETCH_SUBKINDS.contains(kind.getKey()))
                .mapToDouble(Map.Entry::getValue).sum();
        double records = sumOf(in, "records ");
        double kilobytes = sumOf(in, "bytes ") / 1_000;
        return String.format(Locale.ROOT, "%.1f requests (%.1f produce, %.1f fetch, %.1f adding partitions to transactions), %.1f records, %.1f KB",
                all, requests.getOrDefault("Produce", 0.0), requests.getOrDefault("Fetch", 0.0),
                requests.getOrDefault("AddPartitionsToTxn", 0.0), records, kilobytes);
    }

    private static double sumOf(Map<String, Double> in, String prefix) {
        return in.entrySet().stream().filter(entry -> entry.getKey().startsWith(prefix)).mapToDouble(Map.Entry::getValue).sum();
    }
}
