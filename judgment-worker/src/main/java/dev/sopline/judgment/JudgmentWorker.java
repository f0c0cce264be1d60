package dev.sopline.judgment;

import dev.sopline.schemas.definition.StepType;
import dev.sopline.worker.SopWorker;
import java.time.Clock;

/** The judgment agent as a member of the {@code sop-judgment} consumer group on {@code sop.steps.judgment}. */
public final class JudgmentWorker {

    public static final String GROUP = "sop-judgment";

    private JudgmentWorker() {}

    public static SopWorker start(String bootstrapServers, JudgmentAgent agent, int concurrency) {
        String workerId = "judgment-" + agent.model();
        return SopWorker.builder()
                .kafka(bootstrapServers)
                .group(GROUP)
                .workerId(workerId + "-" + java.util.UUID.randomUUID().toString().substring(0, 8))
                .concurrency(concurrency)
                .resolveAll(StepType.JUDGMENT, new JudgmentResolver(agent, workerId, Clock.systemUTC()))
                .start();
    }
}
