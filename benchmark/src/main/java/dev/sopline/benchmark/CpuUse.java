package dev.sopline.benchmark;

import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Where the cores went between two moments: the platform's JVM (which also runs the embedded broker, told apart by
 * its threads' names), and the load generator (this JVM: HTTP clients and SDK workers).
 */
final class CpuUse {

    /** The threads of the embedded Kafka broker and its KRaft controller (Kafka 4 names). */
    private static final Pattern BROKER = Pattern.compile("^(data-plane-kafka-|kafka-\\d+-(raft|metadata|snapshot)|quorum-controller-|broker-\\d+-"
            + "|controller-\\d+-|ExpirationReaper-|group-coordinator|share-|TxnMarkerSender|AddPartitionsToTxnSender|kafka-log-cleaner"
            + "|kafka-scheduler-|LogDirFailureHandler|transaction-log-manager|executor-|metrics-meter-tick|raft-expiration-reaper"
            + "|client-metrics-reaper|persister-state-manager|PersisterStateManager|network-partition-metadata|SensorExpiryThread)");
    private static final Pattern STREAM_THREAD = Pattern.compile("-StreamThread-\\d+$");
    private static final Pattern HTTP = Pattern.compile("^http-nio-");

    record Snapshot(long wallNanos, Duration platform, Map<Long, PlatformJvm.ThreadCpu> platformThreads, Map<String, Duration> jvmThreads,
                    Duration loadGenerator) {}

    static Snapshot take(PlatformProcess platform, PlatformJvm jvm) {
        return new Snapshot(System.nanoTime(), platform.cpuTime(), jvm.threadCpu(), platform.jvmThreadsCpu(), ownCpuTime());
    }

    /** CPU time of this JVM: the HTTP clients, the SDK workers, the event readers. */
    static Duration ownCpuTime() {
        return ProcessHandle.current().info().totalCpuDuration().orElse(Duration.ZERO);
    }

    /**
     * CPU-seconds per 1,000 instances and share of one core of each part between {@code before} and {@code after}.
     * The JVM's own threads, which JMX does not list, are read by name: the JIT compilers and the garbage collector; a
     * thread that ended in between is counted in "JVM: other and ended threads".
     */
    static Map<String, Object> between(Snapshot before, Snapshot after, long instances) {
        double wallSeconds = (after.wallNanos() - before.wallNanos()) / 1e9;
        Map<String, Long> byPart = new LinkedHashMap<>();
        Map<String, Long> byThread = new LinkedHashMap<>();
        after.platformThreads().forEach((id, thread) -> {
            PlatformJvm.ThreadCpu earlier = before.platformThreads().get(id);
            long used = thread.cpuNanos() - (earlier == null ? 0 : earlier.cpuNanos());
            byPart.merge(partOf(thread.name()), used, Long::sum);
            byThread.merge(thread.name().replaceAll("\\d+", "N"), used, Long::sum);
        });
        long platform = after.platform().minus(before.platform()).toNanos();
        long javaThreads = byPart.values().stream().mapToLong(Long::longValue).sum();
        long jvmThreads = 0;
        for (Map.Entry<String, Duration> group : after.jvmThreads().entrySet()) {
            long used = group.getValue().minus(before.jvmThreads().getOrDefault(group.getKey(), Duration.ZERO)).toNanos();
            byPart.put(group.getKey(), used);
            jvmThreads += used;
        }
        byPart.put("platform JVM: other and ended threads", Math.max(0, platform - javaThreads - jvmThreads));
        long loadGenerator = after.loadGenerator().minus(before.loadGenerator()).toNanos();

        Map<String, Object> cpu = new LinkedHashMap<>();
        cpu.put("wall_s", Benchmark.round(wallSeconds));
        cpu.put("platform_process", part(platform, wallSeconds, instances));
        cpu.put("broker", part(byPart.getOrDefault("broker", 0L), wallSeconds, instances));
        cpu.put("load_generator", part(loadGenerator, wallSeconds, instances));
        Map<String, Object> platformParts = new LinkedHashMap<>();
        byPart.forEach((name, nanos) -> platformParts.put(name, part(nanos, wallSeconds, instances)));
        cpu.put("platform_parts", platformParts);
        // The busiest threads by name (numbers folded), for a first look at where the platform's share went.
        Map<String, Object> top = new LinkedHashMap<>();
        byThread.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder())).limit(12)
                .forEach(entry -> top.put(entry.getKey(), Benchmark.round(entry.getValue() / 1e9 / wallSeconds * 100)));
        cpu.put("platform_top_threads_pct_of_a_core", top);
        return cpu;
    }

    private static String partOf(String threadName) {
        if (BROKER.matcher(threadName).find()) {
            return "broker";
        }
        if (STREAM_THREAD.matcher(threadName).find()) {
            return "engine stream threads";
        }
        if (HTTP.matcher(threadName).find()) {
            return "gateway HTTP threads";
        }
        return "other platform threads (Kafka clients, readers)";
    }

    static Map<String, Double> part(long nanos, double wallSeconds, long instances) {
        Map<String, Double> part = new LinkedHashMap<>();
        part.put("cpu_s_per_1000_instances", instances == 0 ? Double.NaN : Benchmark.round(nanos / 1e9 / instances * 1000));
        part.put("pct_of_a_core", Benchmark.round(nanos / 1e9 / wallSeconds * 100));
        return part;
    }
}
