package dev.sopline.benchmark;

import java.util.List;
import java.util.Map;

/** The report as one table for people: a block of rows per commit interval, then the ratios of each. */
final class Table {

    private Table() {}

    @SuppressWarnings("unchecked")
    static String render(List<Map<String, Object>> runs) {
        StringBuilder table = new StringBuilder();
        table.append("\n| Commit interval | Measure | p50 ms | p95 ms | p99 ms | Rate |\n|---|---|---|---|---|---|\n");
        for (Map<String, Object> run : runs) {
            String interval = run.get("commit_interval_ms") + " ms";
            Map<String, Object> floor = (Map<String, Object>) run.get("floor");
            Map<String, Object> engine = (Map<String, Object>) run.get("engine");
            Map<String, Object> gateway = (Map<String, Object>) run.get("gateway");
            row(table, interval, "Floor: EOS round trip, commit per record", (Map<String, Double>) floor.get("round_trip_commit_per_record_ms"), "");
            row(table, interval, "Floor: EOS round trip, commit on the interval", (Map<String, Double>) floor.get("round_trip_commit_interval_ms"), "");
            table.append("| ").append(interval).append(" | Floor: three-hop EOS chain | | | | ")
                    .append(floor.get("three_hop_chain_msgs_per_s")).append(" msgs/s |\n");
            row(table, interval, "Engine: start to completed (batch)", (Map<String, Double>) engine.get("start_to_completed_ms"),
                    engine.get("instances_per_s") + " instances/s");
            table.append("| ").append(interval).append(" | Engine: CPU per instance (batch), platform + load generator | | | | ")
                    .append(engine.get("platform_cpu_ms_per_instance")).append(" + ").append(engine.get("load_generator_cpu_ms_per_instance"))
                    .append(" ms |\n");
            row(table, interval, "Engine: step handoff (batch)", (Map<String, Double>) engine.get("handoff_ms"), "");
            row(table, interval, "Engine: start to completed (one at a time), committed: a sop.events subscriber",
                    (Map<String, Double>) engine.get("sequential_start_to_completed_ms"), "");
            row(table, interval, "Engine: start to completed (one at a time), decided: GET /sop/instances/:id",
                    (Map<String, Double>) engine.get("sequential_start_to_decided_ms"), "");
            row(table, interval, "Engine: step handoff (one at a time)", (Map<String, Double>) engine.get("sequential_handoff_ms"), "");
            row(table, interval, "Gateway: POST start", (Map<String, Double>) gateway.get("latency_ms"),
                    gateway.get("requests_per_s") + " req/s, non-2xx " + gateway.get("non_2xx_rate"));
            table.append("| ").append(interval).append(" | Peak RSS of the platform JVM | | | | ")
                    .append(run.get("platform_peak_rss_mib")).append(" MiB |\n");
        }
        for (Map<String, Object> run : runs) {
            table.append("\nRatios at ").append(run.get("commit_interval_ms")).append(" ms: ").append(run.get("ratios"));
        }
        return table.append('\n').toString();
    }

    private static void row(StringBuilder table, String interval, String name, Map<String, Double> values, String rate) {
        table.append("| ").append(interval).append(" | ").append(name).append(" | ").append(values.get("p50")).append(" | ")
                .append(values.get("p95")).append(" | ").append(values.get("p99")).append(" | ").append(rate).append(" |\n");
    }
}
