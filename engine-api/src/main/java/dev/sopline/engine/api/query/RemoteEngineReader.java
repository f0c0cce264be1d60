package dev.sopline.engine.api.query;

import dev.sopline.engine.api.view.ProcessVersions;
import dev.sopline.schemas.instance.CallbackOwner;
import dev.sopline.schemas.instance.InstanceView;
import dev.sopline.schemas.instance.PendingStep;
import dev.sopline.engine.api.view.WindowBucket;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import tools.jackson.core.type.TypeReference;

/** Reads through an engine replica's routed query endpoints, for a gateway that runs without an engine of its own. */
public final class RemoteEngineReader implements EngineReader {

    /** The query endpoint that names every replica's query endpoint. */
    public static final String REPLICAS = "/query/replicas";

    private final String baseUrl;
    private final ReplicaClient client;

    public RemoteEngineReader(String baseUrl, Supplier<EngineQueryKey> key) {
        this.client = new ReplicaClient(key);
        this.baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
    }

    public String baseUrl() {
        return baseUrl;
    }

    @Override
    public Optional<InstanceView> instance(String workspace, String instanceId) {
        return instanceAnswer(workspace, instanceId).map(Answer::value);
    }

    @Override
    public Optional<Answer<InstanceView>> instanceAnswer(String workspace, String instanceId) {
        return client.answer(baseUrl, "/query/instance", Map.of("workspace", workspace, "id", instanceId), new TypeReference<InstanceView>() {});
    }

    /** The query endpoints ({@code host:port}) of every replica the group's metadata names, as this replica knows them. */
    public List<String> replicaEndpoints() {
        return client.get(baseUrl, REPLICAS, Map.of(), new TypeReference<List<String>>() {}).orElseThrow();
    }

    @Override
    public Page<InstanceView> instances(String workspace, InstanceFilter filter, String cursor, int limit) {
        Map<String, Object> parameters = QueryParameters.page(QueryParameters.of(filter), workspace, cursor, limit);
        return client.get(baseUrl, "/query/instances", parameters, new TypeReference<Page<InstanceView>>() {}).orElseThrow();
    }

    @Override
    public Page<PendingStep> pendingSteps(String workspace, PendingFilter filter, String cursor, int limit) {
        Map<String, Object> parameters = QueryParameters.page(QueryParameters.of(filter), workspace, cursor, limit);
        return client.get(baseUrl, "/query/pending", parameters, new TypeReference<Page<PendingStep>>() {}).orElseThrow();
    }

    @Override
    public Page<dev.sopline.schemas.instance.HistoryEntry> history(String workspace, String instanceId, String cursor, int limit) {
        Map<String, Object> parameters = QueryParameters.page(new java.util.HashMap<>(Map.of("id", instanceId)), workspace, cursor, limit);
        return client.get(baseUrl, "/query/history", parameters, new TypeReference<Page<dev.sopline.schemas.instance.HistoryEntry>>() {}).orElseThrow();
    }

    @Override
    public WorkspaceCounts counts(String workspace) {
        return client.get(baseUrl, "/query/counts", Map.of("workspace", workspace), new TypeReference<WorkspaceCounts>() {}).orElseThrow();
    }

    @Override
    public WindowBucket window(String workspace, Instant from, Instant to) {
        return client.get(baseUrl, "/query/window", QueryParameters.window(workspace, from, to), new TypeReference<WindowBucket>() {})
                .orElseThrow();
    }

    @Override
    public Optional<CallbackOwner> callbackOwner(String callbackId) {
        return client.get(baseUrl, "/query/callback", Map.of("id", callbackId), new TypeReference<CallbackOwner>() {});
    }

    @Override
    public Optional<ProcessVersions> process(String workspace, String name) {
        return client.get(baseUrl, "/query/process", Map.of("workspace", workspace, "name", name), new TypeReference<ProcessVersions>() {});
    }

    /**
     * Asks for the latest version alone. A replica of an earlier version does not know that query and answers it as
     * not found, so "none" is asked again as the whole process: rare (a start of an unknown process), and never wrong
     * while replicas of both versions serve.
     */
    @Override
    public Optional<ProcessVersions.PublishedVersion> latestVersion(String workspace, String name) {
        Optional<ProcessVersions.PublishedVersion> latest = client.get(baseUrl, "/query/latest-version", Map.of("workspace", workspace, "name", name),
                new TypeReference<ProcessVersions.PublishedVersion>() {});
        return latest.isPresent() ? latest : EngineReader.super.latestVersion(workspace, name);
    }

    @Override
    public List<ProcessVersions> processes(String workspace) {
        return client.get(baseUrl, "/query/processes", Map.of("workspace", workspace), new TypeReference<List<ProcessVersions>>() {}).orElseThrow();
    }
}
