package dev.sopline.engine.api.query;

import dev.sopline.engine.api.view.ProcessVersions;
import dev.sopline.engine.api.view.WindowBucket;
import dev.sopline.schemas.instance.CallbackOwner;
import dev.sopline.schemas.instance.InstanceView;
import dev.sopline.schemas.instance.PendingStep;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The reads the gateway needs from the engine's state. Implemented in the engine over one replica's own stores
 * ({@code EngineQueries}) and over every replica by routing each query to the owners ({@code RoutingEngineReader});
 * here over HTTP to an engine replica that routes ({@link RemoteEngineReader}), and over HTTP to whichever of several
 * replicas can answer ({@link ReplicaSetEngineReader}). A read that cannot be answered now throws
 * {@link StateUnavailableException}.
 */
public interface EngineReader {

    Optional<InstanceView> instance(String workspace, String instanceId);

    /**
     * The instance, marked stale when its owner could not be reached and a standby copy answered. A copy that does
     * not hold the instance answers nothing (unavailable), never "absent": it may just be behind.
     */
    default Optional<Answer<InstanceView>> instanceAnswer(String workspace, String instanceId) {
        return instance(workspace, instanceId).map(Answer::fresh);
    }

    /** Newest first; the cursor is the id of the last instance of the previous page. */
    Page<InstanceView> instances(String workspace, InstanceFilter filter, String cursor, int limit);

    /** Oldest first; the cursor is the position of the last entry of the previous page. */
    Page<PendingStep> pendingSteps(String workspace, PendingFilter filter, String cursor, int limit);

    WorkspaceCounts counts(String workspace);

    /**
     * What happened in a workspace between two instants (both inclusive, at a minute's precision): instances started
     * and ended, escalations, and the durations of the completed ones, summed over every replica.
     */
    WindowBucket window(String workspace, Instant from, Instant to);

    /** The instance's history, oldest first; the cursor is the {@code seq} of the last entry of the previous page. */
    Page<dev.sopline.schemas.instance.HistoryEntry> history(String workspace, String instanceId, String cursor, int limit);

    Optional<CallbackOwner> callbackOwner(String callbackId);

    Optional<ProcessVersions> process(String workspace, String name);

    /**
     * The process's highest published version alone, which every start names: readers that can answer it without
     * the other versions do.
     */
    default Optional<ProcessVersions.PublishedVersion> latestVersion(String workspace, String name) {
        return process(workspace, name).flatMap(ProcessVersions::latest);
    }

    List<ProcessVersions> processes(String workspace);
}
