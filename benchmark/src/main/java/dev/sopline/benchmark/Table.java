package dev.sopline.benchmark;

import java.util.List;
import java.util.Map;

/** The report as one table for people: a block of rows per commit interval, then the ratios of each. */
final class Table {

    private Table() {}

    static String render(List<Map<String, Object>> runs) {
        return render(runs, null);
    }

    /** With {@code littleHorse}, the side-by-side case's rows first (its own block) and the ratios against it last. */
    @SuppressWarnings("unchecked")
    static String render(List<Map<String, Object>> runs, Map<String, Object> littleHorse) {
        StringBuilder table = new StringBuilder();
        table.append("\n| Commit interval | Measure | p50 ms | p95 ms | p99 ms | Rate |\n|---|---|---|---|---|---|\n");
        if (littleHorse != null) {
            for (Map<String, Object> measured : (List<Map<String, Object>>) littleHorse.get("closed_loop")) {
                littleHorseRows(table, "LittleHorse " + littleHorse.get("version"), measured);
            }
        }
        for (Map<String, Object> run : runs) {
            String interval = run.get("commit_interval_ms") + " ms";
            Map<String, Object> floor = (Map<String, Object>) run.get("floor");
            Map<String, Object> engine = (Map<String, Object>) run.get("engine");
            Map<String, Object> gateway = (Map<String, Object>) run.get("gateway");
            List<Map<String, Object>> closedLoop = (List<Map<String, Object>>) run.get("gateway_closed_loop");
            if (floor != null) {
                row(table, interval, "Floor: EOS round trip, commit per record", floor.get("round_trip_commit_per_record_ms"), "");
                row(table, interval, "Floor: EOS round trip, commit on the interval", floor.get("round_trip_commit_interval_ms"), "");
                rateRow(table, interval, "Floor: three-hop EOS chain", floor.get("three_hop_chain_msgs_per_s") + " msgs/s");
            }
            if (engine != null) {
                row(table, interval, "Engine (Kafka direct): start to completed (batch)", engine.get("start_to_completed_ms"),
                        engine.get("instances_per_s") + " instances/s");
                rateRow(table, interval, "Engine (Kafka direct): CPU per instance (batch), platform + load generator",
                        engine.get("platform_cpu_ms_per_instance") + " + " + engine.get("load_generator_cpu_ms_per_instance") + " ms");
                row(table, interval, "Engine (Kafka direct): step handoff (batch)", engine.get("handoff_ms"), "");
                Map<String, Object> parallel = (Map<String, Object>) engine.get("parallel_block_batch");
                if (parallel != null) {
                    row(table, interval, "Engine (Kafka direct): start to completed (batch), two steps in a parallel block then a third",
                            parallel.get("start_to_completed_ms"), parallel.get("instances_per_s") + " instances/s");
                }
                row(table, interval, "Engine (Kafka direct): start to completed (one at a time), committed: a sop.events subscriber",
                        engine.get("sequential_start_to_completed_ms"), "");
                row(table, interval, "Engine (Kafka direct): start to completed (one at a time), decided: GET /sop/instances/:id",
                        engine.get("sequential_start_to_decided_ms"), "");
                row(table, interval, "Engine (Kafka direct): step handoff (one at a time)", engine.get("sequential_handoff_ms"), "");
            }
            if (gateway != null) {
                row(table, interval, "Gateway: POST start", gateway.get("latency_ms"),
                        gateway.get("requests_per_s") + " req/s, non-2xx " + gateway.get("non_2xx_rate"));
            }
            Map<String, Object> reads = (Map<String, Object>) run.get("gateway_reads");
            if (reads != null) {
                readRows(table, interval, reads);
            }
            for (Map<String, Object> measured : closedLoop == null ? List.<Map<String, Object>>of() : closedLoop) {
                closedLoopRows(table, interval, measured);
            }
            Map<String, Object> atRate = (Map<String, Object>) run.get("gateway_rate");
            if (atRate != null) {
                atRateRows(table, interval, atRate);
            }
            rateRow(table, interval, "Peak RSS of the platform JVM", run.get("platform_peak_rss_mib") + " MiB");
        }
        for (Map<String, Object> run : runs) {
            table.append("\nRatios at ").append(run.get("commit_interval_ms")).append(" ms: ").append(run.get("ratios"));
            if (run.containsKey("against_littlehorse")) {
                table.append("\nAgainst LittleHorse at ").append(run.get("commit_interval_ms")).append(" ms: ").append(run.get("against_littlehorse"));
            }
        }
        return table.append('\n').toString();
    }

    @SuppressWarnings("unchecked")
    private static void closedLoopRows(StringBuilder table, String interval, Map<String, Object> measured) {
        String name = "Closed loop through the gateway, C=" + measured.get("concurrency") + ": ";
        row(table, interval, name + "POST start answered", measured.get("start_call_ms"),
                measured.get("instances_per_s") + " instances/s, " + measured.get("start_errors") + " start errors, "
                        + measured.get("unfinished") + " unfinished");
        row(table, interval, name + "start to step 1 at the worker", measured.get("start_to_first_step_ms"), "");
        row(table, interval, name + "step handoff", measured.get("handoff_ms"), "");
        row(table, interval, name + "start to completed seen by GET", measured.get("start_to_completed_ms"),
                measured.get("gets_per_instance") + " GETs per instance");
        Map<String, Object> cpu = (Map<String, Object>) measured.get("cpu");
        rateRow(table, interval, name + "CPU-s per 1,000 instances (% of a core): platform process (broker within it; JIT compilers within it) + load generator",
                cpuPart(cpu, "platform_process") + " (" + cpuPart(cpu, "broker") + "; " + jvmPart(cpu, "platform_parts", PlatformProcess.JIT) + ") + "
                        + cpuPart(cpu, "load_generator"));
        settlingRow(table, interval, name, measured.get("jit_settling"));
        Map<String, Double> requests = (Map<String, Double>) measured.get("broker_requests_per_instance");
        Map<String, Double> in = (Map<String, Double>) measured.get("broker_in_per_instance_by_topic");
        if (requests != null && in != null) {
            rateRow(table, interval, name + "into the broker per instance", BrokerLoad.perInstance(requests, in));
        }
    }

    @SuppressWarnings("unchecked")
    private static void littleHorseRows(StringBuilder table, String label, Map<String, Object> measured) {
        String name = "Closed loop through LittleHorse's API, C=" + measured.get("concurrency") + ": ";
        row(table, label, name + "RunWf answered", measured.get("start_call_ms"),
                measured.get("instances_per_s") + " instances/s, " + measured.get("start_errors") + " start errors, "
                        + measured.get("unfinished") + " unfinished");
        row(table, label, name + "start to task 1 at the worker", measured.get("start_to_first_step_ms"), "");
        row(table, label, name + "task handoff", measured.get("handoff_ms"), "");
        row(table, label, name + "start to completed seen by AwaitWorkflowEvent", measured.get("start_to_completed_ms"),
                measured.get("reads_per_instance") + " reads per instance");
        Map<String, Object> cpu = (Map<String, Object>) measured.get("cpu");
        rateRow(table, label, name + "CPU-s per 1,000 instances (% of a core): LittleHorse process (broker within it; JIT compilers within it) + load generator",
                cpuPart(cpu, "littlehorse_process") + " (" + jvmPart(cpu, "littlehorse_jvm_threads", PlatformProcess.JIT.replace("platform JVM", "LittleHorse JVM"))
                        + ") + " + cpuPart(cpu, "load_generator"));
        settlingRow(table, label, name, measured.get("jit_settling"));
    }

    /** How long the case ran unmeasured, after its ramp, for the engine's JIT compilers to settle; nothing when it did not wait. */
    @SuppressWarnings("unchecked")
    private static void settlingRow(StringBuilder table, String label, String name, Object settling) {
        Map<String, Object> waited = (Map<String, Object>) settling;
        if (waited == null || waited.isEmpty()) {
            return;
        }
        String share = Math.round(((Number) waited.get("last_window_jit_pct_of_a_core")).doubleValue()) + "% of a core";
        rateRow(table, label, name + "unmeasured, for the JIT compilers to settle",
                (Boolean.TRUE.equals(waited.get("settled")) ? waited.get("settle_s") + " s, then " + share
                        : waited.get("settle_s") + " s, not settled: still " + share) + " over the last " + waited.get("window_s") + " s");
    }

    @SuppressWarnings("unchecked")
    private static void atRateRows(StringBuilder table, String interval, Map<String, Object> measured) {
        String name = "Open loop through the gateway, " + measured.get("rate_per_s") + " requests/s: ";
        Map<String, Double> startCall = (Map<String, Double>) measured.get("start_call_from_due_time_ms");
        row(table, interval, name + "POST start answered, from when it was due", startCall,
                measured.get("achieved_requests_per_s") + " req/s achieved, max " + startCall.get("max") + " ms, " + measured.get("errors")
                        + " errors " + measured.get("errors_by_kind") + ", " + measured.get("completed") + " of " + measured.get("requests")
                        + " instances completed");
        Map<String, Object> cpu = (Map<String, Object>) measured.get("cpu");
        rateRow(table, interval, name + "CPU-s per 1,000 instances (% of a core): platform process (broker within it) + load generator",
                cpuPart(cpu, "platform_process") + " (" + cpuPart(cpu, "broker") + ") + " + cpuPart(cpu, "load_generator"));
        rateRow(table, interval, name + "peak RSS of the platform JVM during the case", measured.get("platform_peak_rss_mib") + " MiB");
    }

    /** One group of a JVM's own threads, or "n/a" where they could not be read (no {@code /proc}). */
    @SuppressWarnings("unchecked")
    private static String jvmPart(Map<String, Object> cpu, String parts, String group) {
        Map<String, Object> groups = (Map<String, Object>) cpu.get(parts);
        Map<String, Double> values = groups == null ? null : (Map<String, Double>) groups.get(group);
        return values == null ? "n/a" : values.get("cpu_s_per_1000_instances") + " s (" + Math.round(values.get("pct_of_a_core")) + "%)";
    }

    @SuppressWarnings("unchecked")
    private static String cpuPart(Map<String, Object> cpu, String part) {
        Map<String, Double> values = (Map<String, Double>) cpu.get(part);
        return values.get("cpu_s_per_1000_instances") + " s (" + Math.round(values.get("pct_of_a_core")) + "%)";
    }

    /** The reads of one instance: latency, then the platform's CPU per request in microseconds, all and its HTTP threads'. */
    @SuppressWarnings("unchecked")
    private static void readRows(StringBuilder table, String interval, Map<String, Object> reads) {
        row(table, interval, "Gateway: GET /sop/:name/:id of one waiting instance", reads.get("latency_ms"),
                reads.get("requests_per_s") + " req/s, non-2xx " + reads.get("non_2xx_rate"));
        Map<String, Object> cpu = (Map<String, Object>) reads.get("cpu");
        Map<String, Object> parts = (Map<String, Object>) cpu.get("platform_parts");
        rateRow(table, interval, "Gateway: GET /sop/:name/:id, platform CPU per request (of it the HTTP threads)",
                microsPerRequest(cpu.get("platform_process")) + " µs (" + microsPerRequest(parts.get("gateway HTTP threads")) + " µs)");
    }

    /** A part's CPU-seconds per 1,000 requests, as microseconds per request. */
    @SuppressWarnings("unchecked")
    private static String microsPerRequest(Object part) {
        Object perThousand = part == null ? null : ((Map<String, Object>) part).get("cpu_s_per_1000_instances");
        return perThousand instanceof Number number ? String.valueOf(Math.round(number.doubleValue() * 1000)) : "?";
    }

    private static void rateRow(StringBuilder table, String interval, String name, String rate) {
        table.append("| ").append(interval).append(" | ").append(name).append(" | | | | ").append(rate).append(" |\n");
    }

    @SuppressWarnings("unchecked")
    private static void row(StringBuilder table, String interval, String name, Object percentiles, String rate) {
        Map<String, Double> values = (Map<String, Double>) percentiles;
        table.append("| ").append(interval).append(" | ").append(name).append(" | ").append(values.get("p50")).append(" | ")
                .append(values.get("p95")).append(" | ").append(values.get("p99")).append(" | ").append(rate).append(" |\n");
    }
}
