package dev.sopline.benchmark;

import dev.sopline.schemas.json.Json;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * One run, one broker per commit interval: the raw Kafka floor, the engine with SDK workers, the gateway under HTTP
 * load, and the platform's peak memory, measured on a fresh platform for each commit interval asked for. Prints one
 * table with the ratios engine/floor and writes the same figures as JSON.
 *
 * <pre>java -jar benchmark/target/sopline-benchmark.jar [--instances=2000] [--commit-interval-ms=10,100] [--out=benchmark-results.json]</pre>
 */
public final class Benchmark {

    private Benchmark() {}

    /**
     * The load generator (floor clients, SDK workers, event subscribers) shares the cores with the platform. Its
     * optimising compiler would take a large share of one of them for minutes, competing with the platform's, so it
     * runs with the quick compiler only, in a JVM this launcher starts with that flag, as JMH forks its benchmarks
     * into JVMs of known options. The floor and the engine are driven by the same clients, so the ratios stay fair.
     */
    private static final String LOAD_GENERATOR_JIT = "-XX:TieredStopAtLevel=1";

    public static void main(String[] args) throws Exception {
        if (!ManagementFactory.getRuntimeMXBean().getInputArguments().contains(LOAD_GENERATOR_JIT)) {
            String classPath = System.getProperty("java.class.path");
            List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), LOAD_GENERATOR_JIT));
            // Started with -jar (a Spring Boot jar, whose launcher sets up the nested class path) or from a class path.
            command.addAll(classPath.endsWith(".jar") && !classPath.contains(java.io.File.pathSeparator)
                    ? List.of("-jar", classPath) : List.of("-cp", classPath, Benchmark.class.getName()));
            command.addAll(List.of(args));
            System.exit(new ProcessBuilder(command).inheritIO().start().waitFor());
        }
        Map<String, String> options = options(args);
        Settings settings = new Settings(
                Integer.parseInt(options.getOrDefault("instances", "2000")),
                Integer.parseInt(options.getOrDefault("sequential", "50")),
                Integer.parseInt(options.getOrDefault("http-requests", "2000")),
                Integer.parseInt(options.getOrDefault("http-concurrency", "16")),
                Duration.ofSeconds(Long.parseLong(options.getOrDefault("warm-up-s", "60"))),
                Path.of(options.getOrDefault("jar", "standalone/target/sopline-standalone.jar")));
        List<Duration> commitIntervals = java.util.Arrays.stream(options.getOrDefault("commit-interval-ms", "10,100").split(","))
                .map(String::trim).map(Long::parseLong).map(Duration::ofMillis).toList();
        Path out = Path.of(options.getOrDefault("out", "benchmark-results.json"));

        Instant startedAt = Instant.now();
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("started_at", startedAt.toString());
        report.put("machine", Map.of("cores", Runtime.getRuntime().availableProcessors(), "os", System.getProperty("os.name") + " "
                + System.getProperty("os.arch"), "java", System.getProperty("java.version")));
        report.put("settings", Map.of("instances", settings.instances(), "sequential", settings.sequential(),
                "http_requests", settings.httpRequests(), "http_concurrency", settings.httpConcurrency(), "warm_up_s", settings.warmUp().toSeconds(),
                "commit_intervals_ms", commitIntervals.stream().map(Duration::toMillis).toList()));
        List<Map<String, Object>> runs = new ArrayList<>();
        for (Duration commitInterval : commitIntervals) {
            runs.add(run(settings, commitInterval));
        }
        report.put("runs", runs);
        report.put("duration_s", Duration.between(startedAt, Instant.now()).toSeconds());
        Files.writeString(out, Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(report));
        System.out.println(Table.render(runs));
        System.out.println("Took " + report.get("duration_s") + " s. Written to " + out.toAbsolutePath());
    }

    private record Settings(int instances, int sequential, int httpRequests, int httpConcurrency, Duration warmUp, Path jar) {}

    /** Everything measured on one fresh platform whose engine commits every {@code commitInterval}. */
    private static Map<String, Object> run(Settings settings, Duration commitInterval) throws Exception {
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("commit_interval_ms", commitInterval.toMillis());
        try (PlatformProcess platform = PlatformProcess.start(settings.jar(),
                Map.of("SOP_ENGINE_COMMIT_INTERVAL_MS", String.valueOf(commitInterval.toMillis())))) {
            Duration ready = platform.awaitHealthy(Duration.ofSeconds(120));
            report.put("platform_ready_ms", ready.toMillis());
            register(platform, EngineRun.PROCESS);
            register(platform, GatewayRun.PROCESS);

            try (EngineRun run = new EngineRun(platform.bootstrapServers(), 2, 8)) {
                // Load first: on two cores the platform's JIT compiler takes about half a core in the first minute,
                // and a platform runs for days, not seconds. Everything is then measured closer to how it runs for good.
                // The engine's batch follows the warm-up at once: the JIT work the floor's and the gateway's code paths
                // bring would otherwise land in it. The floor is measured warm too, so the ratios do not flatter the engine.
                System.out.println("Commit interval " + commitInterval.toMillis() + " ms: warming up for " + settings.warmUp().toSeconds() + " s...");
                long warmUpEnd = System.nanoTime() + settings.warmUp().toNanos();
                do {
                    run.awaitAll(startMany(run, 500), Duration.ofSeconds(60));
                } while (System.nanoTime() < warmUpEnd);

                System.out.println("Commit interval " + commitInterval.toMillis() + " ms: measuring the engine...");
                report.put("engine", measureEngine(run, platform, settings));

                System.out.println("Commit interval " + commitInterval.toMillis() + " ms: measuring the Kafka floor...");
                KafkaFloor floor = new KafkaFloor(platform.bootstrapServers());
                Latencies perRecord = floor.roundTrip(200, Duration.ZERO);
                Latencies onInterval = floor.roundTrip(50, commitInterval);
                double chain = floor.threeHopThroughput(20_000, commitInterval);
                report.put("floor", Map.of(
                        "round_trip_commit_per_record_ms", percentiles(perRecord),
                        "round_trip_commit_interval_ms", percentiles(onInterval),
                        "three_hop_chain_msgs_per_s", round(chain)));

                System.out.println("Commit interval " + commitInterval.toMillis() + " ms: measuring the gateway...");
                GatewayRun.run(platform.baseUrl(), PlatformProcess.TOKEN, Math.min(200, settings.httpRequests()), settings.httpConcurrency());
                GatewayRun.Result gateway = GatewayRun.run(platform.baseUrl(), PlatformProcess.TOKEN, settings.httpRequests(), settings.httpConcurrency());
                report.put("gateway", Map.of(
                        "requests", gateway.requests(),
                        "requests_per_s", round(gateway.requestsPerSecond()),
                        "latency_ms", percentiles(gateway.latencies()),
                        "non_2xx_rate", gateway.non2xx() / (double) gateway.requests()));
            }
            report.put("platform_peak_rss_mib", platform.peakRssMiB());
        }
        report.put("ratios", ratios(report));
        return report;
    }

    /** Throughput and latency of {@code settings.instances()} at once, then latency of instances started one at a time. */
    private static Map<String, Object> measureEngine(EngineRun run, PlatformProcess platform, Settings settings) throws InterruptedException {
        Map<String, Object> engine = new LinkedHashMap<>();
        for (int i = 0; i < 10; i++) {
            run.awaitAll(startMany(run, 1), Duration.ofSeconds(30));
        }
        Duration platformCpuBefore = platform.cpuTime();
        Duration loadCpuBefore = ownCpuTime();
        List<String> batch = startMany(run, settings.instances());
        long firstStart = System.nanoTime();
        run.awaitAll(batch, Duration.ofSeconds(180));
        double seconds = (run.lastCompletion(batch) - firstStart) / 1e9;
        long completed = run.completedCount(batch);
        engine.put("completed", completed);
        engine.put("instances_per_s", round(completed / seconds));
        // Where the cores went: the platform's share and the load generator's, per instance completed.
        engine.put("platform_cpu_ms_per_instance", round(platform.cpuTime().minus(platformCpuBefore).toNanos() / 1e6 / completed));
        engine.put("load_generator_cpu_ms_per_instance", round(ownCpuTime().minus(loadCpuBefore).toNanos() / 1e6 / completed));
        engine.put("start_to_completed_ms", percentiles(run.startToCompleted(batch)));
        engine.put("handoff_ms", percentiles(run.handoffs(batch)));
        run.followDecisions();
        List<String> oneByOne = new ArrayList<>();
        for (int i = 0; i < settings.sequential(); i++) {
            List<String> one = startMany(run, 1);
            oneByOne.addAll(one);
            run.awaitAll(one, Duration.ofSeconds(30));
        }
        engine.put("sequential_start_to_completed_ms", percentiles(run.startToCompleted(oneByOne)));
        engine.put("sequential_start_to_decided_ms", percentiles(run.startToDecided(oneByOne)));
        engine.put("sequential_handoff_ms", percentiles(run.handoffs(oneByOne)));
        return engine;
    }

    /** CPU time of this JVM: the workers, the load and the event subscriber. */
    private static Duration ownCpuTime() {
        return ProcessHandle.current().info().totalCpuDuration().orElse(Duration.ZERO);
    }

    private static List<String> startMany(EngineRun run, int count) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ids.add(run.start(i));
        }
        run.flush();
        return ids;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> ratios(Map<String, Object> report) {
        Map<String, Object> floor = (Map<String, Object>) report.get("floor");
        Map<String, Object> engine = (Map<String, Object>) report.get("engine");
        double floorPerRecord = ((Map<String, Double>) floor.get("round_trip_commit_per_record_ms")).get("p50");
        double floorInterval = ((Map<String, Double>) floor.get("round_trip_commit_interval_ms")).get("p50");
        double handoff = ((Map<String, Double>) engine.get("sequential_handoff_ms")).get("p50");
        double sequential = ((Map<String, Double>) engine.get("sequential_start_to_completed_ms")).get("p50");
        double decided = ((Map<String, Double>) engine.get("sequential_start_to_decided_ms")).get("p50");
        Map<String, Object> ratios = new LinkedHashMap<>();
        ratios.put("handoff_p50_over_floor_commit_per_record_p50", round(handoff / floorPerRecord));
        ratios.put("handoff_p50_over_floor_same_commit_interval_p50", round(handoff / floorInterval));
        ratios.put("sequential_start_to_completed_p50_over_floor_commit_per_record_p50", round(sequential / floorPerRecord));
        ratios.put("sequential_start_to_decided_p50_over_floor_commit_per_record_p50", round(decided / floorPerRecord));
        ratios.put("instances_per_s_times_3_steps_over_three_hop_chain",
                round(((Number) engine.get("instances_per_s")).doubleValue() * 3 / ((Number) floor.get("three_hop_chain_msgs_per_s")).doubleValue()));
        return ratios;
    }

    static Map<String, Double> percentiles(Latencies latencies) {
        Map<String, Double> values = new LinkedHashMap<>();
        values.put("p50", round(latencies.percentileMillis(50)));
        values.put("p95", round(latencies.percentileMillis(95)));
        values.put("p99", round(latencies.percentileMillis(99)));
        return values;
    }

    static double round(double value) {
        return Math.round(value * 100) / 100.0;
    }

    private static void register(PlatformProcess platform, String yaml) throws Exception {
        String boundary = "----bench" + UUID.randomUUID();
        String body = "--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"p.yaml\"\r\n\r\n" + yaml
                + "\r\n--" + boundary + "--\r\n";
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(platform.baseUrl() + "/sop/processes/register"))
                .header("X-SOP-Token", PlatformProcess.TOKEN)
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8)).build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 201) {
            throw new IllegalStateException("Registration failed: " + response.body());
        }
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> options = new HashMap<>();
        for (String arg : args) {
            if (arg.startsWith("--") && arg.contains("=")) {
                options.put(arg.substring(2, arg.indexOf('=')), arg.substring(arg.indexOf('=') + 1));
            }
        }
        return options;
    }
}
