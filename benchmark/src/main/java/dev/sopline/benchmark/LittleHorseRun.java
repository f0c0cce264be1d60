package dev.sopline.benchmark;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The side-by-side case: the platform's closed loop (same C, warm-up, ramp and measured seconds) against a fresh
 * LittleHorse node on the same machine in the same run, never while the platform runs, so the two never share the cores.
 */
final class LittleHorseRun {

    /** The version that {@code benchmark-littlehorse} runs and the benchmark's client library is: both poms name it. */
    private static final String VERSION = "1.2.1";

    private LittleHorseRun() {}

    /**
     * @param javaExecutable a Java 25 {@code java}, which LittleHorse's server needs
     * @param nodeBuild the {@code benchmark-littlehorse/target} directory
     */
    static Map<String, Object> measure(Path javaExecutable, Path nodeBuild, List<Integer> concurrencies, Duration warmUp,
                                       Duration ramp, JitSettling settling, Duration duration) throws Exception {
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("version", VERSION);
        try (LittleHorseProcess node = LittleHorseProcess.start(javaExecutable, nodeBuild)) {
            report.put("ready_ms", node.awaitReady(Duration.ofSeconds(180)).toMillis());
            try (LittleHorseClosedLoop closedLoop = new LittleHorseClosedLoop("localhost", node.apiPort)) {
                System.out.println("LittleHorse: warming up the closed loop for " + warmUp.toSeconds() + " s...");
                try (ClosedLoop.Loop loop = closedLoop.start(concurrencies.stream().max(Integer::compare).orElse(1))) {
                    Thread.sleep(warmUp.toMillis());
                }
                List<Map<String, Object>> cases = new ArrayList<>();
                for (int concurrency : concurrencies) {
                    System.out.println("LittleHorse: measuring the closed loop, " + concurrency + " in flight...");
                    cases.add(measureClosedLoop(closedLoop, node, concurrency, ramp, settling, duration));
                }
                report.put("closed_loop", cases);
            }
        }
        return report;
    }

    private static Map<String, Object> measureClosedLoop(LittleHorseClosedLoop closedLoop, LittleHorseProcess node, int concurrency,
                                                         Duration ramp, JitSettling settling, Duration duration) throws Exception {
        long wallBefore;
        long wallAfter;
        Duration nodeBefore;
        Duration nodeAfter;
        Duration ownBefore;
        Duration ownAfter;
        Map<String, Duration> nodeJvmBefore;
        Map<String, Duration> nodeJvmAfter;
        Map<String, Object> settled;
        ClosedLoop.Loop loop = closedLoop.start(concurrency);
        try (loop) {
            Thread.sleep(ramp.toMillis());
            settled = settling.await(JitSettling.compilersOf(node.pid()));
            wallBefore = System.nanoTime();
            nodeBefore = node.cpuTime();
            nodeJvmBefore = node.jvmThreadsCpu();
            ownBefore = CpuUse.ownCpuTime();
            loop.beginMeasuring();
            Thread.sleep(duration.toMillis());
            loop.endMeasuring();
            wallAfter = System.nanoTime();
            nodeAfter = node.cpuTime();
            nodeJvmAfter = node.jvmThreadsCpu();
            ownAfter = CpuUse.ownCpuTime();
        }
        ClosedLoop.Result result = loop.result();
        double wallSeconds = (wallAfter - wallBefore) / 1e9;
        Map<String, Object> cpu = new LinkedHashMap<>();
        cpu.put("wall_s", Benchmark.round(wallSeconds));
        cpu.put("littlehorse_process", CpuUse.part(nodeAfter.minus(nodeBefore).toNanos(), wallSeconds, result.completedInWindow()));
        cpu.put("load_generator", CpuUse.part(ownAfter.minus(ownBefore).toNanos(), wallSeconds, result.completedInWindow()));
        // The node's JIT compilers and collector, as the platform's are reported: how much of a case went to compiling.
        Map<String, Object> nodeJvm = new LinkedHashMap<>();
        nodeJvmAfter.forEach((group, used) -> nodeJvm.put(group.replace("platform JVM", "LittleHorse JVM"),
                CpuUse.part(used.minus(nodeJvmBefore.getOrDefault(group, Duration.ZERO)).toNanos(), wallSeconds, result.completedInWindow())));
        cpu.put("littlehorse_jvm_threads", nodeJvm);
        Map<String, Object> measured = new LinkedHashMap<>();
        measured.put("concurrency", concurrency);
        measured.put("started", result.started());
        measured.put("completed_while_measuring", result.completedInWindow());
        measured.put("instances_per_s", Benchmark.round(result.instancesPerSecond()));
        measured.put("start_call_ms", Benchmark.percentiles(result.startCall()));
        measured.put("start_to_first_step_ms", Benchmark.percentiles(result.startToFirstStep()));
        measured.put("handoff_ms", Benchmark.percentiles(result.handoff()));
        measured.put("start_to_completed_ms", Benchmark.percentiles(result.startToCompleted()));
        measured.put("start_errors", result.startErrors());
        measured.put("unfinished", result.unfinished());
        measured.put("reads_per_instance", Benchmark.round(result.readsPerInstance()));
        measured.put("jit_settling", settled);
        measured.put("cpu", cpu);
        return measured;
    }
}
