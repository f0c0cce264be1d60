package dev.sopline.benchmark;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.management.Attribute;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;

/**
 * What the Kafka clients and the broker say of their own work, read from their JMX metrics: how often the stream
 * threads poll and commit, how many records each produce and fetch request carries, and how many requests of each
 * kind the broker served. The clients' rates are Kafka's own, over its last sample windows (about the last minute).
 */
final class KafkaMetrics {

    private static final Map<String, List<String>> CLIENT_METRICS = Map.of(
            "kafka.streams:type=stream-thread-metrics,*", List.of("poll-rate", "poll-records-avg", "poll-latency-avg", "process-rate",
                    "process-records-avg", "commit-rate", "commit-latency-avg", "poll-ratio", "process-ratio", "commit-ratio", "punctuate-ratio"),
            "kafka.producer:type=producer-metrics,*", List.of("request-rate", "record-send-rate", "records-per-request-avg",
                    "request-latency-avg", "batch-size-avg", "record-retry-rate"),
            "kafka.consumer:type=consumer-fetch-manager-metrics,*", List.of("fetch-rate", "records-per-request-avg", "fetch-latency-avg",
                    "records-consumed-rate"),
            "kafka.consumer:type=consumer-coordinator-metrics,*", List.of("commit-rate", "commit-latency-avg"));

    private KafkaMetrics() {}

    /** Each client's (or stream thread's) figures, by kind of client and id; idle clients left out. */
    static Map<String, Object> clients(MBeanServerConnection server) throws Exception {
        Map<String, Object> all = new TreeMap<>();
        for (Map.Entry<String, List<String>> kind : CLIENT_METRICS.entrySet()) {
            for (ObjectName name : server.queryNames(new ObjectName(kind.getKey()), null)) {
                if (name.getKeyProperty("topic") != null || name.getKeyProperty("partition") != null) {
                    continue;
                }
                // Only the attributes this MBean has: Kafka logs a stack trace for each one asked for that it lacks.
                java.util.Set<String> present = java.util.Arrays.stream(server.getMBeanInfo(name).getAttributes())
                        .map(javax.management.MBeanAttributeInfo::getName).collect(java.util.stream.Collectors.toSet());
                String[] wanted = kind.getValue().stream().filter(present::contains).toArray(String[]::new);
                Map<String, Double> values = new LinkedHashMap<>();
                for (Attribute attribute : server.getAttributes(name, wanted).asList()) {
                    if (attribute.getValue() instanceof Number number && Double.isFinite(number.doubleValue())) {
                        values.put(attribute.getName(), Benchmark.round(number.doubleValue()));
                    }
                }
                if (values.values().stream().anyMatch(value -> value > 0)) {
                    String id = name.getKeyProperty("thread-id") != null ? name.getKeyProperty("thread-id") : name.getKeyProperty("client-id");
                    all.put(name.getKeyProperty("type") + " " + id, values);
                }
            }
        }
        return all;
    }

    /** Requests the broker has served so far, by kind (Produce, Fetch, EndTxn...), all versions together. */
    static Map<String, Long> brokerRequests(MBeanServerConnection server) throws Exception {
        Map<String, Long> counts = new TreeMap<>();
        for (ObjectName name : server.queryNames(new ObjectName("kafka.network:type=RequestMetrics,name=RequestsPerSec,*"), null)) {
            Object count = server.getAttribute(name, "Count");
            if (count instanceof Number number) {
                counts.merge(name.getKeyProperty("request"), number.longValue(), Long::sum);
            }
        }
        return counts;
    }

    /**
     * Requests the broker has answered with an error so far, by kind and error ({@code AddPartitionsToTxn
     * CONCURRENT_TRANSACTIONS}: a transaction's write that met the markers of the commit before, checked again after the
     * broker's backoff).
     */
    static Map<String, Long> brokerErrors(MBeanServerConnection server) throws Exception {
        Map<String, Long> counts = new TreeMap<>();
        for (ObjectName name : server.queryNames(new ObjectName("kafka.network:type=RequestMetrics,name=ErrorsPerSec,*"), null)) {
            if (!"NONE".equals(name.getKeyProperty("error")) && server.getAttribute(name, "Count") instanceof Number number) {
                counts.merge(name.getKeyProperty("request") + " " + name.getKeyProperty("error"), number.longValue(), Long::sum);
            }
        }
        return counts;
    }

    /**
     * What the broker has taken in so far, by topic: records ({@code records <topic>}) and bytes ({@code bytes <topic>}),
     * as appended by each topic's leader, changelogs and the broker's own topics included.
     */
    static Map<String, Long> brokerTopicsIn(MBeanServerConnection server) throws Exception {
        Map<String, Long> counts = new TreeMap<>();
        for (String[] metric : new String[][] {{"MessagesInPerSec", "records "}, {"BytesInPerSec", "bytes "}}) {
            for (ObjectName name : server.queryNames(new ObjectName("kafka.server:type=BrokerTopicMetrics,name=" + metric[0] + ",topic=*"), null)) {
                if (server.getAttribute(name, "Count") instanceof Number number) {
                    counts.put(metric[1] + name.getKeyProperty("topic"), number.longValue());
                }
            }
        }
        return counts;
    }

    private static final List<String> TIMED_REQUESTS = List.of("Produce", "FetchConsumer", "TxnOffsetCommit", "EndTxn", "AddPartitionsToTxn",
            "OffsetCommit", "WriteTxnMarkers");
    private static final List<String> REQUEST_PHASES = List.of("TotalTimeMs", "RequestQueueTimeMs", "LocalTimeMs", "RemoteTimeMs",
            "ResponseQueueTimeMs", "ResponseSendTimeMs");

    /**
     * Where the broker's time on each kind of request went, mean ms of each phase: waiting for a request handler
     * thread (queue), doing it (local), waiting on others such as a transaction's markers or a fetch's wait (remote),
     * and sending the answer. Kafka's histograms favour the last few minutes.
     */
    static Map<String, Object> brokerRequestTimes(MBeanServerConnection server) throws Exception {
        Map<String, Object> times = new LinkedHashMap<>();
        for (String request : TIMED_REQUESTS) {
            Map<String, Double> phases = new LinkedHashMap<>();
            for (String phase : REQUEST_PHASES) {
                ObjectName name = new ObjectName("kafka.network:type=RequestMetrics,name=" + phase + ",request=" + request);
                if (server.isRegistered(name)) {
                    phases.put(phase + " mean", Benchmark.round(((Number) server.getAttribute(name, "Mean")).doubleValue()));
                    if (phase.equals("TotalTimeMs")) {
                        phases.put(phase + " p99", Benchmark.round(((Number) server.getAttribute(name, "99thPercentile")).doubleValue()));
                    }
                }
            }
            if (!phases.isEmpty()) {
                times.put(request, phases);
            }
        }
        return times;
    }

    /** How much each count grew between two readings; counts that did not grow are left out. */
    static Map<String, Long> increase(Map<String, Long> before, Map<String, Long> after) {
        Map<String, Long> grown = new TreeMap<>();
        after.forEach((key, count) -> {
            long increase = count - before.getOrDefault(key, 0L);
            if (increase > 0) {
                grown.put(key, increase);
            }
        });
        return grown;
    }

    /** Per instance, what each of the broker's counts grew by between two readings; those under 0.05 per instance left out. */
    static Map<String, Double> perInstance(Map<String, Long> before, Map<String, Long> after, long instances) {
        Map<String, Double> per = new LinkedHashMap<>();
        after.entrySet().stream()
                .map(entry -> Map.entry(entry.getKey(), (entry.getValue() - before.getOrDefault(entry.getKey(), 0L)) / (double) Math.max(1, instances)))
                .filter(entry -> entry.getValue() >= 0.05)
                .sorted(Map.Entry.<String, Double>comparingByValue().reversed())
                .forEach(entry -> per.put(entry.getKey(), Benchmark.round(entry.getValue())));
        return per;
    }
}
