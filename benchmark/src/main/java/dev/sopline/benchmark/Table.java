package dev.sopline.benchmark;

import java.util.Map;

/** The report as a table for people. */
final class Table {

    private Table() {}

    @SuppressWarnings("unchecked")
    static String render(Map<String, Object> report) {
        Map<String, Object> floor = (Map<String, Object>) report.get("floor");
        Map<String, Object> engine = (Map<String, Object>) report.get("engine");
        Map<String, Object> gateway = (Map<String, Object>) report.get("gateway");
        StringBuilder table = new StringBuilder();
        table.append("\nEngine commit interval ").append(report.get("commit_interval_ms")).append(" ms\n");
        table.append("\n| Measure | p50 ms | p95 ms | p99 ms | Rate |\n|---|---|---|---|---|\n");
        row(table, "Floor: EOS round trip, commit per record", (Map<String, Double>) floor.get("round_trip_commit_per_record_ms"), "");
        row(table, "Floor: EOS round trip, commit every " + report.get("commit_interval_ms") + " ms",
                (Map<String, Double>) floor.get("round_trip_commit_interval_ms"), "");
        table.append("| Floor: three-hop EOS chain | | | | ").append(floor.get("three_hop_chain_msgs_per_s")).append(" msgs/s |\n");
        row(table, "Engine: start to completed (batch)", (Map<String, Double>) engine.get("start_to_completed_ms"),
                engine.get("instances_per_s") + " instances/s");
        row(table, "Engine: step handoff (batch)", (Map<String, Double>) engine.get("handoff_ms"), "");
        row(table, "Engine: start to completed (one at a time)", (Map<String, Double>) engine.get("sequential_start_to_completed_ms"), "");
        row(table, "Engine: step handoff (one at a time)", (Map<String, Double>) engine.get("sequential_handoff_ms"), "");
        row(table, "Gateway: POST start", (Map<String, Double>) gateway.get("latency_ms"),
                gateway.get("requests_per_s") + " req/s, non-2xx " + gateway.get("non_2xx_rate"));
        table.append("\nPeak RSS of the platform JVM: ").append(report.get("platform_peak_rss_mib")).append(" MiB\n");
        table.append("Ratios: ").append(report.get("ratios")).append('\n');
        return table.toString();
    }

    private static void row(StringBuilder table, String name, Map<String, Double> values, String rate) {
        table.append("| ").append(name).append(" | ").append(values.get("p50")).append(" | ").append(values.get("p95")).append(" | ")
                .append(values.get("p99")).append(" | ").append(rate).append(" |\n");
    }
}
