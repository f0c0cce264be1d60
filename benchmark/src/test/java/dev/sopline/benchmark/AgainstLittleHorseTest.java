package dev.sopline.benchmark;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AgainstLittleHorseTest {

    @Test
    void dividesTheClosedLoopsFiguresByLittleHorsesAtTheSameConcurrencyOnly() {
        Map<String, Object> run = Map.of("gateway_closed_loop", List.of(
                closedLoop(1, 40.0, 4.0, 20.0),
                closedLoop(64, 300.0, 50.0, 200.0)));
        Map<String, Object> littleHorse = Map.of("closed_loop", List.of(
                closedLoop(64, 150.0, 100.0, 400.0),
                closedLoop(32, 140.0, 60.0, 250.0)));

        Map<String, Object> ratios = Benchmark.againstLittleHorse(run, littleHorse);

        assertThat(ratios).containsExactly(
                Map.entry("closed_loop_c64_instances_per_s_over_littlehorse", 2.0),
                Map.entry("closed_loop_c64_start_call_p50_over_littlehorse", 0.5),
                Map.entry("closed_loop_c64_start_to_completed_p50_over_littlehorse", 0.5));
    }

    @Test
    void showsLittleHorsesRowsAndTheRatiosAgainstItInTheTable() {
        Map<String, Object> measured = new java.util.HashMap<>(closedLoop(64, 150.0, 100.0, 400.0));
        measured.put("start_errors", 0);
        measured.put("unfinished", 0);
        measured.put("reads_per_instance", 1.0);
        measured.put("start_to_first_step_ms", percentiles(1.0));
        measured.put("handoff_ms", percentiles(1.0));
        measured.put("cpu", Map.of(
                "littlehorse_process", Map.of("cpu_s_per_1000_instances", 10.5, "pct_of_a_core", 158.0),
                "load_generator", Map.of("cpu_s_per_1000_instances", 2.1, "pct_of_a_core", 31.0)));

        String table = Table.render(List.of(Map.of("commit_interval_ms", 100, "ratios", Map.of(),
                "against_littlehorse", Map.of("closed_loop_c64_instances_per_s_over_littlehorse", 2.0))),
                Map.of("version", "1.2.1", "closed_loop", List.of(measured)));

        assertThat(table)
                .contains("| LittleHorse 1.2.1 | Closed loop through LittleHorse's API, C=64: RunWf answered | 100.0 | 200.0 | 300.0 | "
                        + "150.0 instances/s, 0 start errors, 0 unfinished |")
                .contains("| LittleHorse 1.2.1 | Closed loop through LittleHorse's API, C=64: CPU-s per 1,000 instances (% of a core): "
                        + "LittleHorse process (broker within it; JIT compilers within it) + load generator | | | | 10.5 s (158%) (n/a) + 2.1 s (31%) |")
                .contains("Against LittleHorse at 100 ms: {closed_loop_c64_instances_per_s_over_littlehorse=2.0}");
    }

    private static Map<String, Object> closedLoop(int concurrency, double instancesPerSecond, double startCallP50, double completedP50) {
        return Map.of("concurrency", concurrency, "instances_per_s", instancesPerSecond,
                "start_call_ms", percentiles(startCallP50), "start_to_completed_ms", percentiles(completedP50));
    }

    private static Map<String, Double> percentiles(double p50) {
        return Map.of("p50", p50, "p95", p50 * 2, "p99", p50 * 3);
    }
}
