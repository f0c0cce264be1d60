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

    private static Map<String, Double> percentiles() {
        return Map.of("p50", 1.0, "p95", 2.0, "p99", 3.0);
    }
}
