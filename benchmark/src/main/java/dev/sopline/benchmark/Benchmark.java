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
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * One run, one broker per commit interval: the raw Kafka floor, the engine with SDK workers, the gateway under HTTP
 * load, instances run as users run them (started through the gateway by a closed loop of clients, completion read
 * back through it), {@code POST start} at a fixed rate (an open loop), and the platform's peak memory, measured on a
 * fresh platform for each commit interval asked for.
 * Prints one table with the ratios to the floor and writes the same figures as JSON. Asked for, it first runs the same
 * closed loop against LittleHorse on the same machine ({@link LittleHorseRun}) and adds the ratios against it.
 *
 * <pre>java -jar benchmark/target/sopline-benchmark.jar [--case=engine,floor,gateway,gateway-closed-loop,gateway-rate,littlehorse] [--instances=2000]
 *     [--commit-interval-ms=10,100] [--concurrency=1,32,64] [--http-client=url-connection|jdk] [--rate=200] [--duration-s=30] [--profile=true]
 *     [--platform-java-options="-XX:NativeMemoryTracking=summary"] [--out=benchmark-results.json]</pre>
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
            Process loadGenerator = new ProcessBuilder(command).inheritIO().start();
            // Stopping this launcher (Ctrl-C, kill) stops the load generator, which stops the platform it started.
            Runtime.getRuntime().addShutdownHook(new Thread(loadGenerator::destroy));
            System.exit(loadGenerator.waitFor());
        }
        Map<String, String> options = options(args);
        Path out = Path.of(options.getOrDefault("out", "benchmark-results.json"));
        Set<String> cases = new LinkedHashSet<>(list(options.getOrDefault("case", String.join(",", ALL_CASES))));
        if (cases.isEmpty() || !KNOWN_CASES.containsAll(cases)) {
            throw new IllegalArgumentException("Expected --case to name some of " + KNOWN_CASES + ", but got " + cases);
        }
        boolean platformCases = cases.stream().anyMatch(ALL_CASES::contains);
        Path jar = Path.of(options.getOrDefault("jar", "standalone/target/sopline/sopline-standalone.jar"));
        if (platformCases && !Files.isRegularFile(jar)) {
            System.err.println("Expected the platform's jar at " + jar.toAbsolutePath() + ". Build it with "
                    + "'./mvnw -q -B package -DskipTests' and run the benchmark from the repository's root, or name it with --jar=<path>.");
            System.exit(2);
        }
        Settings settings = new Settings(
                cases,
                Integer.parseInt(options.getOrDefault("instances", "2000")),
                Integer.parseInt(options.getOrDefault("sequential", "50")),
                Integer.parseInt(options.getOrDefault("http-requests", "2000")),
                Integer.parseInt(options.getOrDefault("http-concurrency", "16")),
                Integer.parseInt(options.getOrDefault("process-versions", "1")),
                Duration.ofSeconds(Long.parseLong(options.getOrDefault("warm-up-s", "60"))),
                list(options.getOrDefault("concurrency", "1,32,64")).stream().map(Integer::parseInt).toList(),
                Duration.ofSeconds(Long.parseLong(options.getOrDefault("duration-s", "30"))),
                Duration.ofSeconds(Long.parseLong(options.getOrDefault("ramp-s", "5"))),
                Integer.parseInt(options.getOrDefault("rate", "200")),
                Boolean.parseBoolean(options.getOrDefault("profile", "false")) ? out.toAbsolutePath().getParent() : null,
                jar,
                java.util.Arrays.stream(options.getOrDefault("platform-java-options", "").split(" ")).filter(option -> !option.isBlank()).toList(),
                BlockingHttp.named(options.getOrDefault("http-client", "url-connection")),
                new JitSettling(Double.parseDouble(options.getOrDefault("settle-jit-below-pct", "10")) / 100, SETTLE_WINDOW,
                        Duration.ofSeconds(Long.parseLong(options.getOrDefault("settle-limit-s", "180")))));
        List<Duration> commitIntervals = list(options.getOrDefault("commit-interval-ms", "10,100")).stream()
                .map(Long::parseLong).map(Duration::ofMillis).toList();

        Instant startedAt = Instant.now();
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("started_at", startedAt.toString());
        report.put("machine", Map.of("cores", Runtime.getRuntime().availableProcessors(), "os", System.getProperty("os.name") + " "
                + System.getProperty("os.arch"), "java", System.getProperty("java.version")));
        Map<String, Object> reportedSettings = new LinkedHashMap<>();
        reportedSettings.put("cases", List.copyOf(cases));
        reportedSettings.put("instances", settings.instances());
        reportedSettings.put("sequential", settings.sequential());
        reportedSettings.put("http_requests", settings.httpRequests());
        reportedSettings.put("http_concurrency", settings.httpConcurrency());
        reportedSettings.put("gateway_process_versions", settings.processVersions());
        reportedSettings.put("warm_up_s", settings.warmUp().toSeconds());
        reportedSettings.put("closed_loop_concurrency", settings.concurrency());
        reportedSettings.put("closed_loop_duration_s", settings.duration().toSeconds());
        reportedSettings.put("closed_loop_ramp_s", settings.ramp().toSeconds());
        reportedSettings.put("closed_loop_settle_jit_below_pct_of_a_core", Benchmark.round(100 * settings.settling().coreShare()));
        reportedSettings.put("closed_loop_settle_limit_s", settings.settling().limit().toSeconds());
        reportedSettings.put("open_loop_rate_per_s", settings.rate());
        reportedSettings.put("platform_java_options", settings.platformJavaOptions());
        reportedSettings.put("closed_loop_http_client", settings.httpClient().optionName());
        reportedSettings.put("commit_intervals_ms", commitIntervals.stream().map(Duration::toMillis).toList());
        report.put("settings", reportedSettings);
        // Alone: the platform is not started until LittleHorse has stopped, or LittleHorse until the platform has. Which
        // goes first is an option, so that a host that speeds up or slows down over a run can be told from the engines.
        boolean littleHorseLast = Boolean.parseBoolean(options.getOrDefault("littlehorse-last", "false"));
        Map<String, Object> littleHorse = cases.contains(LITTLEHORSE) && !littleHorseLast ? measureLittleHorse(options, settings) : null;
        List<Map<String, Object>> runs = new ArrayList<>();
        for (Duration commitInterval : platformCases ? commitIntervals : List.<Duration>of()) {
            runs.add(run(settings, commitInterval));
        }
        if (cases.contains(LITTLEHORSE) && littleHorseLast) {
            littleHorse = measureLittleHorse(options, settings);
        }
        if (littleHorse != null) {
            report.put("littlehorse", littleHorse);
            reportedSettings.put("littlehorse_last", littleHorseLast);
            for (Map<String, Object> run : runs) {
                run.put("against_littlehorse", againstLittleHorse(run, littleHorse));
            }
        }
        report.put("runs", runs);
        report.put("duration_s", Duration.between(startedAt, Instant.now()).toSeconds());
        Files.writeString(out, Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(report));
        System.out.println(Table.render(runs, littleHorse));
        System.out.println("Took " + report.get("duration_s") + " s. Written to " + out.toAbsolutePath());
    }

    static final String ENGINE = "engine";
    static final String FLOOR = "floor";
    static final String GATEWAY = "gateway";
    static final String GATEWAY_CLOSED_LOOP = "gateway-closed-loop";
    static final String GATEWAY_RATE = "gateway-rate";
    /** The closed loop against LittleHorse on the same machine; only when asked for, as it needs its own build and Java 25. */
    static final String LITTLEHORSE = "littlehorse";
    private static final List<String> ALL_CASES = List.of(ENGINE, FLOOR, GATEWAY, GATEWAY_CLOSED_LOOP, GATEWAY_RATE);
    private static final List<String> KNOWN_CASES = List.of(ENGINE, FLOOR, GATEWAY, GATEWAY_CLOSED_LOOP, GATEWAY_RATE, LITTLEHORSE);

    private static Map<String, Object> measureLittleHorse(Map<String, String> options, Settings settings) throws Exception {
        return LittleHorseRun.measure(littleHorseJava(options), Path.of(options.getOrDefault("littlehorse-node", "benchmark-littlehorse/target")),
                settings.concurrency(), settings.warmUp(), settings.ramp(), settings.settling(), settings.duration());
    }

    /** {@code --littlehorse-java}, else the first Java 25 or later under {@code /usr/lib/jvm}. */
    private static Path littleHorseJava(Map<String, String> options) throws java.io.IOException {
        if (options.containsKey("littlehorse-java")) {
            return Path.of(options.get("littlehorse-java"));
        }
        Path jvms = Path.of("/usr/lib/jvm");
        if (Files.isDirectory(jvms)) {
            try (var installed = Files.list(jvms)) {
                java.util.Optional<Path> java25 = installed.filter(home -> home.getFileName().toString().matches(".*-(2[5-9]|[3-9]\\d)(\\D.*)?"))
                        .map(home -> home.resolve("bin/java")).filter(Files::isExecutable).sorted().findFirst();
                if (java25.isPresent()) {
                    return java25.get();
                }
            }
        }
        throw new IllegalArgumentException("LittleHorse's server needs Java 25 or later: name its java with --littlehorse-java=<path>");
    }

    /**
     * @param concurrency the closed loop's numbers of instances in flight, one case each
     * @param duration how long each closed-loop case and the open loop are measured, after {@code ramp} or a warm-up
     * @param rate the open loop's requests per second
     * @param profileDirectory where to write a flight recording of the platform during the busiest closed-loop case; null for none
     */
    private record Settings(Set<String> cases, int instances, int sequential, int httpRequests, int httpConcurrency, int processVersions,
                            Duration warmUp,
                            List<Integer> concurrency, Duration duration, Duration ramp, int rate, Path profileDirectory, Path jar,
                            List<String> platformJavaOptions, BlockingHttp httpClient, JitSettling settling) {}

    /** How long the JIT compilers' share of a core is measured over, while a case waits for them to settle. */
    private static final Duration SETTLE_WINDOW = Duration.ofSeconds(10);

    /**
     * The platform's JVM options. When profiling, the flight recorder starts with the JVM: started later, through the
     * management agent, it first instruments the JDK's own event classes, which throws away much of the compiled code,
     * and the platform spends the measured seconds compiling again. Measured: a closed loop at C=64 fell from 168 to
     * 36 instances/s with a recording started mid-run, and not with one started at launch.
     */
    private static List<String> platformOptions(Settings settings) {
        if (settings.profileDirectory() == null) {
            return settings.platformJavaOptions();
        }
        List<String> options = new java.util.ArrayList<>(settings.platformJavaOptions());
        options.add("-XX:StartFlightRecording=name=from-launch,settings=profile,disk=false");
        return options;
    }

    /** Everything measured on one fresh platform whose engine commits every {@code commitInterval}. */
    private static Map<String, Object> run(Settings settings, Duration commitInterval) throws Exception {
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("commit_interval_ms", commitInterval.toMillis());
        String label = "Commit interval " + commitInterval.toMillis() + " ms: ";
        try (PlatformProcess platform = PlatformProcess.start(settings.jar(), platformOptions(settings),
                Map.of("SOP_ENGINE_COMMIT_INTERVAL_MS", String.valueOf(commitInterval.toMillis())))) {
            Duration ready = platform.awaitHealthy(Duration.ofSeconds(120));
            report.put("platform_ready_ms", ready.toMillis());
            register(platform, EngineRun.PROCESS);
            register(platform, EngineRun.OTHER_PROCESS);
            register(platform, EngineRun.PARALLEL_PROCESS);
            for (String version : GatewayRun.versions(settings.processVersions())) {
                register(platform, GatewayRun.process(version));
            }

            // Load first: on two cores the platform's JIT compiler takes about half a core in the first minute,
            // and a platform runs for days, not seconds. Everything is then measured closer to how it runs for good.
            if (settings.cases().contains(ENGINE)) {
                try (EngineRun run = new EngineRun(platform.bootstrapServers(), 2, 8)) {
                    // The engine's batch follows the warm-up at once: the JIT work the floor's and the gateway's code paths
                    // bring would otherwise land in it. The floor is measured warm too, so the ratios do not flatter the engine.
                    System.out.println(label + "warming up for " + settings.warmUp().toSeconds() + " s...");
                    long warmUpEnd = System.nanoTime() + settings.warmUp().toNanos();
                    do {
                        run.awaitAll(startMany(run, 500), Duration.ofSeconds(60));
                    } while (System.nanoTime() < warmUpEnd);

                    System.out.println(label + "measuring the engine...");
                    report.put("engine", measureEngine(run, platform, settings));
                }
            }

            try (GatewayClosedLoop closedLoop = settings.cases().contains(GATEWAY_CLOSED_LOOP)
                    ? new GatewayClosedLoop(platform.baseUrl(), PlatformProcess.TOKEN, platform.bootstrapServers(), EngineRun.WORKER_GROUP,
                            settings.httpClient()) : null) {
                if (closedLoop != null) {
                    // Warms the gateway's start and read paths, which the engine's batch does not take; the whole
                    // warm-up when there was no batch.
                    Duration warmUp = settings.cases().contains(ENGINE) ? settings.warmUp().dividedBy(4) : settings.warmUp();
                    System.out.println(label + "warming up the closed loop through the gateway for " + warmUp.toSeconds() + " s...");
                    try (ClosedLoop.Loop loop = closedLoop.start(settings.concurrency().stream().max(Integer::compare).orElse(1))) {
                        Thread.sleep(warmUp.toMillis());
                    }
                }

                if (settings.cases().contains(FLOOR)) {
                    System.out.println(label + "measuring the Kafka floor...");
                    KafkaFloor floor = new KafkaFloor(platform.bootstrapServers());
                    Latencies perRecord = floor.roundTrip(200, Duration.ZERO);
                    Latencies onInterval = floor.roundTrip(50, commitInterval);
                    double chain = floor.threeHopThroughput(20_000, commitInterval);
                    report.put("floor", Map.of(
                            "round_trip_commit_per_record_ms", percentiles(perRecord),
                            "round_trip_commit_interval_ms", percentiles(onInterval),
                            "three_hop_chain_msgs_per_s", round(chain)));
                }

                if (settings.cases().contains(GATEWAY)) {
                    System.out.println(label + "measuring the gateway...");
                    GatewayRun.run(platform.baseUrl(), PlatformProcess.TOKEN, Math.min(200, settings.httpRequests()), settings.httpConcurrency());
                    GatewayRun.Result gateway = GatewayRun.run(platform.baseUrl(), PlatformProcess.TOKEN, settings.httpRequests(), settings.httpConcurrency());
                    report.put("gateway", Map.of(
                            "requests", gateway.requests(),
                            "requests_per_s", round(gateway.requestsPerSecond()),
                            "latency_ms", percentiles(gateway.latencies()),
                            "non_2xx_rate", gateway.non2xx() / (double) gateway.requests()));
                    System.out.println(label + "measuring reads of one instance through the gateway...");
                    report.put("gateway_reads", measureReads(platform, settings));
                }

                if (closedLoop != null) {
                    List<Map<String, Object>> closedLoopCases = new ArrayList<>();
                    try (PlatformJvm jvm = PlatformJvm.attach(platform.pid())) {
                        int busiest = settings.concurrency().stream().max(Integer::compare).orElse(1);
                        for (int concurrency : settings.concurrency()) {
                            System.out.println(label + "measuring the closed loop through the gateway, " + concurrency + " in flight...");
                            Path recording = settings.profileDirectory() == null || concurrency != busiest ? null
                                    : settings.profileDirectory().resolve("platform-c" + concurrency + "-" + commitInterval.toMillis() + "ms.jfr");
                            closedLoopCases.add(measureClosedLoop(closedLoop, concurrency, settings, platform, jvm, recording));
                        }
                    }
                    report.put("gateway_closed_loop", closedLoopCases);
                }
            }
            if (settings.cases().contains(GATEWAY_RATE)) {
                // Warm already when the closed loop ran; the start path only, when the engine's batch did.
                Duration warmUp = settings.cases().contains(GATEWAY_CLOSED_LOOP) ? settings.ramp()
                        : settings.cases().contains(ENGINE) ? settings.warmUp().dividedBy(4) : settings.warmUp();
                System.out.println(label + "measuring POST start at " + settings.rate() + " requests/s through the gateway, after "
                        + warmUp.toSeconds() + " s at that rate...");
                report.put("gateway_rate", measureAtRate(platform, settings, warmUp));
            }
            report.put("platform_peak_rss_mib", platform.peakRssMiB());
        }
        report.put("ratios", ratios(report));
        return report;
    }

    /**
     * {@code GET /sop/:name/:id} of one waiting instance, from as many clients as the gateway case's starts, for the ramp
     * and then the duration of a closed-loop case, with the platform's CPU per request meanwhile: the HTTP path's cost
     * (token, routing, the store read, the answer) with no other work in the platform.
     */
    private static Map<String, Object> measureReads(PlatformProcess platform, Settings settings) throws Exception {
        BlockingHttp http = settings.httpClient();
        BlockingHttp.Answer started = http.send("POST", platform.baseUrl() + "/sop/bench-form/start", PlatformProcess.TOKEN,
                "{\"inputs\": {\"n\": 1}}", Duration.ofSeconds(30));
        if (started.status() != 201) {
            throw new IllegalStateException("Expected 201 for the instance to read, but got " + started.status() + ": " + started.body());
        }
        String url = platform.baseUrl() + "/sop/bench-form/" + Json.mapper().readTree(started.body()).path("id").asString();
        GatewayRun.reads(http, url, PlatformProcess.TOKEN, settings.httpConcurrency(), settings.ramp());
        try (PlatformJvm jvm = PlatformJvm.attach(platform.pid())) {
            CpuUse.Snapshot before = CpuUse.take(platform, jvm);
            GatewayRun.Reads reads = GatewayRun.reads(http, url, PlatformProcess.TOKEN, settings.httpConcurrency(), settings.duration());
            CpuUse.Snapshot after = CpuUse.take(platform, jvm);
            Map<String, Object> measured = new LinkedHashMap<>();
            measured.put("requests", reads.requests());
            measured.put("requests_per_s", round(reads.requestsPerSecond()));
            measured.put("latency_ms", percentiles(reads.latencies()));
            measured.put("non_2xx_rate", reads.requests() == 0 ? 0.0 : reads.non2xx() / (double) reads.requests());
            // Per 1,000 requests here, where the closed loop's are per 1,000 instances.
            measured.put("cpu", CpuUse.between(before, after, reads.requests()));
            return measured;
        }
    }

    /**
     * One closed-loop case: {@code concurrency} instances in flight through the gateway for the ramp, then measured for
     * the duration, with the CPU each process used meanwhile and, if {@code recording} is given, a flight recording of
     * the platform over the same window.
     */
    private static Map<String, Object> measureClosedLoop(GatewayClosedLoop closedLoop, int concurrency, Settings settings,
                                                         PlatformProcess platform, PlatformJvm jvm, Path recording) throws Exception {
        CpuUse.Snapshot before;
        CpuUse.Snapshot after;
        Map<String, Long> requestsBefore;
        Map<String, Long> requestsAfter;
        Map<String, Long> errorsBefore;
        Map<String, Long> errorsAfter;
        Map<String, Long> topicsInBefore;
        Map<String, Long> topicsInAfter;
        Map<String, Object> platformClients;
        Map<String, Object> loadGeneratorClients;
        Map<String, Object> brokerRequestTimes;
        Map<String, Object> settled;
        ClosedLoop.Loop loop = closedLoop.start(concurrency);
        try (loop) {
            Thread.sleep(settings.ramp().toMillis());
            settled = settings.settling().await(JitSettling.compilersOf(platform.pid()));
            PlatformJvm.Recording flight = recording == null ? null : jvm.startRecording("closed-loop-c" + concurrency);
            requestsBefore = KafkaMetrics.brokerRequests(jvm.server());
            errorsBefore = KafkaMetrics.brokerErrors(jvm.server());
            topicsInBefore = KafkaMetrics.brokerTopicsIn(jvm.server());
            before = CpuUse.take(platform, jvm);
            loop.beginMeasuring();
            Thread.sleep(settings.duration().toMillis());
            loop.endMeasuring();
            after = CpuUse.take(platform, jvm);
            requestsAfter = KafkaMetrics.brokerRequests(jvm.server());
            errorsAfter = KafkaMetrics.brokerErrors(jvm.server());
            topicsInAfter = KafkaMetrics.brokerTopicsIn(jvm.server());
            platformClients = KafkaMetrics.clients(jvm.server());
            brokerRequestTimes = KafkaMetrics.brokerRequestTimes(jvm.server());
            loadGeneratorClients = KafkaMetrics.clients(ManagementFactory.getPlatformMBeanServer());
            if (flight != null) {
                flight.stopAndSave(recording);
                System.out.println("Flight recording of the platform written to " + recording);
            }
        }
        ClosedLoop.Result result = loop.result();
        Map<String, Object> measured = new LinkedHashMap<>();
        measured.put("concurrency", concurrency);
        measured.put("started", result.started());
        measured.put("completed_while_measuring", result.completedInWindow());
        measured.put("instances_per_s", round(result.instancesPerSecond()));
        measured.put("start_call_ms", percentiles(result.startCall()));
        measured.put("start_to_first_step_ms", percentiles(result.startToFirstStep()));
        measured.put("handoff_ms", percentiles(result.handoff()));
        measured.put("start_to_completed_ms", percentiles(result.startToCompleted()));
        measured.put("start_errors", result.startErrors());
        measured.put("unfinished", result.unfinished());
        measured.put("gets_per_instance", round(result.readsPerInstance()));
        measured.put("jit_settling", settled);
        measured.put("cpu", CpuUse.between(before, after, result.completedInWindow()));
        measured.put("broker_requests_per_instance", KafkaMetrics.perInstance(requestsBefore, requestsAfter, result.completedInWindow()));
        measured.put("broker_request_times_ms", brokerRequestTimes);
        measured.put("broker_errors_while_measuring", KafkaMetrics.increase(errorsBefore, errorsAfter));
        measured.put("broker_in_per_instance_by_topic", KafkaMetrics.perInstance(topicsInBefore, topicsInAfter, result.completedInWindow()));
        measured.put("platform_kafka_clients", platformClients);
        measured.put("load_generator_kafka_clients", loadGeneratorClients);
        return measured;
    }

    /**
     * The open loop: {@code POST start} at the rate, the workers completing the steps, with the CPU the platform used
     * while measuring and its peak resident set size over the whole case.
     */
    private static Map<String, Object> measureAtRate(PlatformProcess platform, Settings settings, Duration warmUp) throws Exception {
        try (GatewayOpenLoop openLoop = new GatewayOpenLoop(platform.baseUrl(), PlatformProcess.TOKEN, platform.bootstrapServers(),
                EngineRun.WORKER_GROUP); PlatformJvm jvm = PlatformJvm.attach(platform.pid())) {
            platform.resetPeakRss();
            CpuUse.Snapshot[] cpu = new CpuUse.Snapshot[2];
            GatewayOpenLoop.Result result = openLoop.run(settings.rate(), warmUp, settings.duration(),
                    () -> cpu[0] = CpuUse.take(platform, jvm), () -> cpu[1] = CpuUse.take(platform, jvm));
            Map<String, Object> measured = new LinkedHashMap<>();
            measured.put("rate_per_s", result.rate());
            measured.put("requests", result.requests());
            measured.put("achieved_requests_per_s", round(result.achievedRequestsPerSecond()));
            measured.put("start_call_from_due_time_ms", percentiles(result.startCall()));
            measured.put("errors", result.errorCount());
            measured.put("errors_by_kind", result.errors());
            measured.put("completed", result.completed());
            measured.put("cpu", CpuUse.between(cpu[0], cpu[1], result.completedInWindow()));
            measured.put("platform_peak_rss_mib", platform.peakSinceResetMiB());
            return measured;
        }
    }

    /** Throughput and latency of {@code settings.instances()} at once, then latency of instances started one at a time. */
    private static Map<String, Object> measureEngine(EngineRun run, PlatformProcess platform, Settings settings) throws InterruptedException {
        Map<String, Object> engine = new LinkedHashMap<>();
        for (int i = 0; i < 10; i++) {
            run.awaitAll(startMany(run, 1), Duration.ofSeconds(30));
        }
        Duration platformCpuBefore = platform.cpuTime();
        Duration loadCpuBefore = CpuUse.ownCpuTime();
        List<String> batch = startMany(run, settings.instances());
        long firstStart = System.nanoTime();
        run.awaitAll(batch, Duration.ofSeconds(180));
        double seconds = (run.lastCompletion(batch) - firstStart) / 1e9;
        long completed = run.completedCount(batch);
        engine.put("completed", completed);
        engine.put("completed_by_process", run.completedByProcess(batch));
        engine.put("instances_per_s", round(completed / seconds));
        // Where the cores went: the platform's share and the load generator's, per instance completed.
        engine.put("platform_cpu_ms_per_instance", round(platform.cpuTime().minus(platformCpuBefore).toNanos() / 1e6 / completed));
        engine.put("load_generator_cpu_ms_per_instance", round(CpuUse.ownCpuTime().minus(loadCpuBefore).toNanos() / 1e6 / completed));
        engine.put("start_to_completed_ms", percentiles(run.startToCompleted(batch)));
        engine.put("handoff_ms", percentiles(run.handoffs(batch)));
        engine.put("parallel_block_batch", measureParallelBatch(run, settings));
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

    /**
     * The same batch of a process whose first two steps run side by side in a parallel block before the third: what a
     * block's fan-out and join cost against the three-step chain. A short warm-up first brings in the block's code paths.
     */
    private static Map<String, Object> measureParallelBatch(EngineRun run, Settings settings) throws InterruptedException {
        run.awaitAll(startMany(run, EngineRun.PARALLEL_PROCESS_NAME, 500), Duration.ofSeconds(60));
        List<String> batch = startMany(run, EngineRun.PARALLEL_PROCESS_NAME, settings.instances());
        long firstStart = System.nanoTime();
        run.awaitAll(batch, Duration.ofSeconds(180));
        double seconds = (run.lastCompletion(batch) - firstStart) / 1e9;
        long completed = run.completedCount(batch);
        Map<String, Object> parallel = new LinkedHashMap<>();
        parallel.put("completed", completed);
        parallel.put("instances_per_s", round(completed / seconds));
        parallel.put("start_to_completed_ms", percentiles(run.startToCompleted(batch)));
        return parallel;
    }

    /** {@code count} instances of the three-step process, of each team in turn. */
    private static List<String> startMany(EngineRun run, int count) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ids.add(run.startAlternating(i));
        }
        run.flush();
        return ids;
    }

    private static List<String> startMany(EngineRun run, String process, int count) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ids.add(run.start(process, i));
        }
        run.flush();
        return ids;
    }

    /** The measures over the floor's, as far as the cases run allow. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> ratios(Map<String, Object> report) {
        Map<String, Object> ratios = new LinkedHashMap<>();
        Map<String, Object> floor = (Map<String, Object>) report.get("floor");
        if (floor == null) {
            return ratios;
        }
        double floorPerRecord = p50(floor.get("round_trip_commit_per_record_ms"));
        double floorInterval = p50(floor.get("round_trip_commit_interval_ms"));
        double chain = ((Number) floor.get("three_hop_chain_msgs_per_s")).doubleValue();
        Map<String, Object> engine = (Map<String, Object>) report.get("engine");
        if (engine != null) {
            double handoff = p50(engine.get("sequential_handoff_ms"));
            ratios.put("handoff_p50_over_floor_commit_per_record_p50", round(handoff / floorPerRecord));
            ratios.put("handoff_p50_over_floor_same_commit_interval_p50", round(handoff / floorInterval));
            ratios.put("sequential_start_to_completed_p50_over_floor_commit_per_record_p50",
                    round(p50(engine.get("sequential_start_to_completed_ms")) / floorPerRecord));
            ratios.put("sequential_start_to_decided_p50_over_floor_commit_per_record_p50",
                    round(p50(engine.get("sequential_start_to_decided_ms")) / floorPerRecord));
            ratios.put("instances_per_s_times_3_steps_over_three_hop_chain",
                    round(((Number) engine.get("instances_per_s")).doubleValue() * 3 / chain));
        }
        Map<String, Object> atRate = (Map<String, Object>) report.get("gateway_rate");
        if (atRate != null) {
            // Like for like: the tail of the start call against the tail of the floor's round trip.
            ratios.put("gateway_rate_start_call_p99_over_floor_commit_per_record_p99", round(
                    p99(atRate.get("start_call_from_due_time_ms")) / p99(floor.get("round_trip_commit_per_record_ms"))));
        }
        List<Map<String, Object>> closedLoop = (List<Map<String, Object>>) report.get("gateway_closed_loop");
        for (Map<String, Object> measured : closedLoop == null ? List.<Map<String, Object>>of() : closedLoop) {
            String prefix = "closed_loop_c" + measured.get("concurrency") + "_";
            double instancesPerSecond = ((Number) measured.get("instances_per_s")).doubleValue();
            ratios.put(prefix + "start_call_p50_over_floor_commit_per_record_p50", round(p50(measured.get("start_call_ms")) / floorPerRecord));
            ratios.put(prefix + "handoff_p50_over_floor_commit_per_record_p50", round(p50(measured.get("handoff_ms")) / floorPerRecord));
            ratios.put(prefix + "start_to_completed_p50_over_floor_commit_per_record_p50",
                    round(p50(measured.get("start_to_completed_ms")) / floorPerRecord));
            ratios.put(prefix + "instances_per_s_times_3_steps_over_three_hop_chain", round(instancesPerSecond * 3 / chain));
            if (engine != null) {
                // Through the front door against the Kafka-direct batch: what the gateway and the read-back cost.
                ratios.put(prefix + "instances_per_s_over_kafka_direct_batch",
                        round(instancesPerSecond / ((Number) engine.get("instances_per_s")).doubleValue()));
            }
        }
        return ratios;
    }

    /**
     * The closed loop's figures over LittleHorse's at the same C: above 1 means more instances a second, or a longer
     * latency, than LittleHorse.
     */
    @SuppressWarnings("unchecked")
    static Map<String, Object> againstLittleHorse(Map<String, Object> report, Map<String, Object> littleHorse) {
        Map<String, Object> ratios = new LinkedHashMap<>();
        List<Map<String, Object>> ours = (List<Map<String, Object>>) report.getOrDefault("gateway_closed_loop", List.of());
        List<Map<String, Object>> theirs = (List<Map<String, Object>>) littleHorse.getOrDefault("closed_loop", List.of());
        for (Map<String, Object> measured : ours) {
            for (Map<String, Object> other : theirs) {
                if (!measured.get("concurrency").equals(other.get("concurrency"))) {
                    continue;
                }
                String prefix = "closed_loop_c" + measured.get("concurrency") + "_";
                ratios.put(prefix + "instances_per_s_over_littlehorse", round(((Number) measured.get("instances_per_s")).doubleValue()
                        / ((Number) other.get("instances_per_s")).doubleValue()));
                ratios.put(prefix + "start_call_p50_over_littlehorse", round(p50(measured.get("start_call_ms")) / p50(other.get("start_call_ms"))));
                ratios.put(prefix + "start_to_completed_p50_over_littlehorse",
                        round(p50(measured.get("start_to_completed_ms")) / p50(other.get("start_to_completed_ms"))));
            }
        }
        return ratios;
    }

    @SuppressWarnings("unchecked")
    private static double p50(Object percentiles) {
        return ((Map<String, Double>) percentiles).get("p50");
    }

    @SuppressWarnings("unchecked")
    private static double p99(Object percentiles) {
        return ((Map<String, Double>) percentiles).get("p99");
    }

    static Map<String, Double> percentiles(org.HdrHistogram.Histogram nanos) {
        Map<String, Double> values = new LinkedHashMap<>();
        for (double percentile : new double[] {50, 95, 99}) {
            values.put("p" + (int) percentile, round(nanos.getValueAtPercentile(percentile) / 1e6));
        }
        values.put("max", round(nanos.getMaxValue() / 1e6));
        return values;
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

    private static List<String> list(String commaSeparated) {
        return java.util.Arrays.stream(commaSeparated.split(",")).map(String::trim).filter(item -> !item.isEmpty()).toList();
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
