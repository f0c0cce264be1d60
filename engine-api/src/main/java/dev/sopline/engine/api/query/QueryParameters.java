package dev.sopline.engine.api.query;

import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.instance.Assignee;
import dev.sopline.schemas.instance.InstanceState;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/** How the query endpoints between replicas spell their parameters, in both directions. */
public final class QueryParameters {

    private QueryParameters() {}

    /** The parameters of a window query: the workspace and both bounds in epoch milliseconds. */
    public static Map<String, Object> window(String workspace, java.time.Instant from, java.time.Instant to) {
        return Map.of("workspace", workspace, "from", from.toEpochMilli(), "to", to.toEpochMilli());
    }

    /**
     * A read scoped to some partitions of the command topic, and whether a standby copy may answer for them:
     * {@code partitions=0,3,5} and {@code stale=true}.
     */
    public static Map<String, Object> scoped(Map<String, Object> read, Collection<Integer> partitions, boolean stale) {
        Map<String, Object> parameters = new LinkedHashMap<>(read);
        parameters.put("partitions", partitions.stream().map(String::valueOf).collect(Collectors.joining(",")));
        parameters.put("stale", stale);
        return parameters;
    }

    /** The partitions a scoped read names, or null when it names none (the replica's own active partitions). */
    public static List<Integer> partitions(Map<String, String> parameters) {
        String partitions = parameters.get("partitions");
        if (partitions == null) {
            return null;
        }
        return partitions.isEmpty() ? List.of() : Arrays.stream(partitions.split(",")).map(Integer::valueOf).toList();
    }

    public static String encode(Map<String, Object> parameters) {
        return parameters.entrySet().stream()
                .filter(entry -> entry.getValue() != null)
                .map(entry -> entry.getKey() + "=" + URLEncoder.encode(String.valueOf(entry.getValue()), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
    }

    public static Map<String, String> decode(String query) {
        Map<String, String> parameters = new LinkedHashMap<>();
        if (query == null || query.isEmpty()) {
            return parameters;
        }
        for (String pair : query.split("&")) {
            int equals = pair.indexOf('=');
            if (equals > 0) {
                parameters.put(URLDecoder.decode(pair.substring(0, equals), StandardCharsets.UTF_8),
                        URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8));
            }
        }
        return parameters;
    }

    /** A page request's parameters: the filter's, plus workspace, cursor and limit. */
    public static Map<String, Object> page(Map<String, Object> filter, String workspace, String cursor, int limit) {
        Map<String, Object> parameters = new LinkedHashMap<>(filter);
        parameters.put("workspace", workspace);
        parameters.put("cursor", cursor);
        parameters.put("limit", limit);
        return parameters;
    }

    public static Map<String, Object> of(InstanceFilter filter) {
        Map<String, Object> parameters = new LinkedHashMap<>();
        parameters.put("process", filter.process());
        parameters.put("state", filter.state() == null ? null : filter.state().wireName());
        return parameters;
    }

    public static Map<String, Object> of(PendingFilter filter) {
        Map<String, Object> parameters = new LinkedHashMap<>();
        parameters.put("type", filter.type() == null ? null : filter.type().wireName());
        parameters.put("process", filter.process());
        parameters.put("run", filter.run());
        parameters.put("assignee", filter.assignee() == null ? null : filter.assignee().wireName());
        parameters.put("instance_id", filter.instanceId());
        return parameters;
    }

    public static InstanceFilter instanceFilter(Map<String, String> parameters) {
        return new InstanceFilter(parameters.get("process"),
                parameters.get("state") == null ? null : InstanceState.fromWireName(parameters.get("state")).orElseThrow());
    }

    public static PendingFilter pendingFilter(Map<String, String> parameters) {
        String assignee = parameters.get("assignee");
        return new PendingFilter(
                parameters.get("type") == null ? null : StepType.fromWireName(parameters.get("type")).orElseThrow(),
                parameters.get("process"),
                parameters.get("run"),
                assignee == null ? null : Arrays.stream(Assignee.values()).filter(a -> a.wireName().equals(assignee)).findFirst().orElseThrow(),
                parameters.get("instance_id"));
    }
}
