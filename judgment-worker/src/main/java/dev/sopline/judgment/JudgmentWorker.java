package dev.sopline.judgment;

import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.kafka.StableMemberId;
import dev.sopline.worker.SopWorker;
import java.nio.file.Path;
import java.time.Clock;

/** The judgment agent as a member of the {@code sop-judgment} consumer group on {@code sop.steps.judgment}. */
public final class JudgmentWorker {

    public static final String GROUP = "sop-judgment";
    /** The file of a data directory that keeps the worker's static member id ({@link StableMemberId}). */
    static final String MEMBER_ID_FILE = "judgment-member-id";
    /**
     * Judgment steps of every workspace share one topic and a few slots, and a decision takes seconds: served in the
     * order written, one workspace's thousand steps would hold every other workspace's for an hour. The worker reads
     * this far ahead and serves workspaces in turn (the records' bytes bound the heap it holds; a case's inputs are at
     * most 256 KiB).
     */
    static final int READ_AHEAD_STEPS = 1_000;
    static final long READ_AHEAD_BYTES = 8L * 1024 * 1024;

    private JudgmentWorker() {}

    /** A dynamic member: after a crash, its restarted self waits for the dead one's session to end before it gets steps. */
    public static SopWorker start(String bootstrapServers, JudgmentAgent agent, int concurrency) {
        return builder(bootstrapServers, agent, concurrency).start();
    }

    /**
     * A static member under the id kept in {@code dataDir}: restarted on the same directory after a crash, it takes the
     * judgment steps of its partitions back at once.
     */
    public static SopWorker start(String bootstrapServers, JudgmentAgent agent, int concurrency, Path dataDir) {
        return builder(bootstrapServers, agent, concurrency)
                .staticMember(StableMemberId.keptIn(dataDir.resolve(MEMBER_ID_FILE), "sop-judgment"))
                .start();
    }

    private static SopWorker.Builder builder(String bootstrapServers, JudgmentAgent agent, int concurrency) {
        String workerId = "judgment-" + agent.model();
        return SopWorker.builder()
                .kafka(bootstrapServers)
                .group(GROUP)
                .workerId(workerId + "-" + java.util.UUID.randomUUID().toString().substring(0, 8))
                .concurrency(concurrency)
                .fairAcrossWorkspaces(READ_AHEAD_STEPS, READ_AHEAD_BYTES)
                .resolveAll(StepType.JUDGMENT, new JudgmentResolver(agent, workerId, Clock.systemUTC()));
    }
}
