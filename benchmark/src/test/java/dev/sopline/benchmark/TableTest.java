package dev.sopline.benchmark;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TableTest {

    @Test
    void showsWhatEachInstanceOfTheClosedLoopCostTheBrokerWithoutCountingAFetchTwice() {
        Map<String, Object> closedLoop = Map.of(
                "concurrency", 64,
                "instances_per_s", 88.3,
                "start_errors", 0,
                "unfinished", 0,
                "gets_per_instance", 1.0,
                "start_call_ms", percentiles(),
                "start_to_first_step_ms", percentiles(),
                "handoff_ms", percentiles(),
                "start_to_completed_ms", percentiles(),
                "cpu", Map.of(
                        "platform_process", Map.of("cpu_s_per_1000_instances", 18.68, "pct_of_a_core", 165.0),
                        "broker", Map.of("cpu_s_per_1000_instances", 5.14, "pct_of_a_core", 45.4),
                        "load_generator", Map.of("cpu_s_per_1000_instances", 3.51, "pct_of_a_core", 31.0)));
        Map<String, Object> measured = new HashMap<>(closedLoop);
        measured.put("broker_requests_per_instance", Map.of("Produce", 5.46, "Fetch", 2.7, "FetchConsumer", 2.7,
                "AddPartitionsToTxn", 1.43, "OffsetCommit", 0.3, "EndTxn", 0.08));
        measured.put("broker_in_per_instance_by_topic", Map.of("records sop.events", 8.5, "records sop.commands", 4.0,
                "bytes sop.events", 6_100.0, "bytes sop.commands", 1_200.0));

        String table = Table.render(List.of(Map.of("commit_interval_ms", 100, "gateway_closed_loop", List.of(measured),
                "ratios", Map.of())));

        assertThat(table).contains("| 100 ms | Closed loop through the gateway, C=64: into the broker per instance | | | | "
                + "10.0 requests (5.5 produce, 2.7 fetch, 1.4 adding partitions to transactions), 12.5 records, 7.3 KB |");
    }

    @Test
    void showsWhatOneReadCostTheWholePlatformAndItsHttpThreadsInMicroseconds() {
        Map<String, Object> reads = Map.of(
                "requests", 140_000,
                "requests_per_s", 7_000.0,
                "latency_ms", percentiles(),
                "non_2xx_rate", 0.0,
                "cpu", Map.of(
                        "platform_process", Map.of("cpu_s_per_1000_instances", 0.187, "pct_of_a_core", 131.0),
                        "platform_parts", Map.of("gateway HTTP threads", Map.of("cpu_s_per_1000_instances", 0.1524, "pct_of_a_core", 107.0))));

        String table = Table.render(List.of(Map.of("commit_interval_ms", 100, "gateway_reads", reads, "ratios", Map.of())));

        assertThat(table).contains("| 100 ms | Gateway: GET /sop/:name/:id, platform CPU per request (of it the HTTP threads) | | | | "
                + "187 µs (152 µs) |");
    }

    private static final Map<String, Object> PLATFORM_CPU = Map.of(
            "platform_process", part(12.05, 115.0),
            "broker", part(4.59, 44.0),
            "load_generator", part(2.76, 26.0),
            "platform_parts", Map.of(PlatformProcess.JIT, part(2.1, 20.1)));
    private static final Map<String, Object> LITTLEHORSE_CPU = Map.of(
            "littlehorse_process", part(7.37, 110.0),
            "load_generator", part(1.49, 22.0),
            "littlehorse_jvm_threads", Map.of("LittleHorse JVM: JIT compiler threads", part(0.4, 6.2)));

    @Test
    void showsTheShareOfEachEnginesJitCompilersBesideItsCpu() {
        Map<String, Object> platformCase = new HashMap<>(closedLoopAt(1));
        platformCase.put("cpu", PLATFORM_CPU);
        Map<String, Object> littleHorseCase = new HashMap<>(closedLoopAt(1));
        littleHorseCase.put("reads_per_instance", 1.0);
        littleHorseCase.put("cpu", LITTLEHORSE_CPU);

        String table = Table.render(List.of(Map.of("commit_interval_ms", 100, "gateway_closed_loop", List.of(platformCase),
                "ratios", Map.of())), Map.of("version", "1.2.1", "closed_loop", List.of(littleHorseCase)));

        assertThat(table).contains("C=1: CPU-s per 1,000 instances (% of a core): platform process (broker within it; JIT compilers within it) "
                + "+ load generator | | | | 12.05 s (115%) (4.59 s (44%); 2.1 s (20%)) + 2.76 s (26%) |");
        assertThat(table).contains("C=1: CPU-s per 1,000 instances (% of a core): LittleHorse process (broker within it; JIT compilers within it) "
                + "+ load generator | | | | 7.37 s (110%) (0.4 s (6%)) + 1.49 s (22%) |");
    }

    @Test
    void showsHowLongEachEngineRanUnmeasuredForItsCompilersToSettle() {
        Map<String, Object> platformCase = new HashMap<>(closedLoopAt(64));
        platformCase.put("cpu", PLATFORM_CPU);
        platformCase.put("jit_settling", Map.of("settle_s", 180.0, "settled", false, "last_window_jit_pct_of_a_core", 23.4, "window_s", 10L));
        Map<String, Object> littleHorseCase = new HashMap<>(closedLoopAt(64));
        littleHorseCase.put("reads_per_instance", 1.0);
        littleHorseCase.put("cpu", LITTLEHORSE_CPU);
        littleHorseCase.put("jit_settling", Map.of("settle_s", 20.1, "settled", true, "last_window_jit_pct_of_a_core", 7.6, "window_s", 10L));
        Map<String, Object> notWaited = new HashMap<>(closedLoopAt(1));
        notWaited.put("cpu", PLATFORM_CPU);
        notWaited.put("jit_settling", Map.of());

        String table = Table.render(List.of(Map.of("commit_interval_ms", 100, "gateway_closed_loop", List.of(notWaited, platformCase),
                "ratios", Map.of())), Map.of("version", "1.2.1", "closed_loop", List.of(littleHorseCase)));

        assertThat(table).contains("| 100 ms | Closed loop through the gateway, C=64: unmeasured, for the JIT compilers to settle | | | | "
                + "180.0 s, not settled: still 23% of a core over the last 10 s |");
        assertThat(table).contains("| LittleHorse 1.2.1 | Closed loop through LittleHorse's API, C=64: unmeasured, for the JIT compilers to settle | | | | "
                + "20.1 s, then 8% of a core over the last 10 s |");
        assertThat(table).doesNotContain("C=1: unmeasured");
    }

    private static Map<String, Object> closedLoopAt(int concurrency) {
        return Map.of("concurrency", concurrency, "instances_per_s", 95.7, "start_errors", 0, "unfinished", 0, "gets_per_instance", 1.0,
                "start_call_ms", percentiles(), "start_to_first_step_ms", percentiles(), "handoff_ms", percentiles(),
                "start_to_completed_ms", percentiles());
    }

    private static Map<String, Double> percentiles() {
        return Map.of("p50", 1.0, "p95", 2.0, "p99", 3.0);
    }

    private static Map<String, Double> part(double cpuSecondsPerThousand, double pctOfACore) {
        return Map.of("cpu_s_per_1000_instances", cpuSecondsPerThousand, "pct_of_a_core", pctOfACore);
    }
}
