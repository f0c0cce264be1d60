package dev.sopline.judgment;

import dev.sopline.schemas.event.StepReady;
import dev.sopline.schemas.event.StepResult;
import dev.sopline.schemas.instance.JudgmentDecision;
import dev.sopline.schemas.instance.StepError;
import dev.sopline.worker.StepResolver;
import java.time.Clock;

/**
 * Turns a judgment step-ready event into the agent's result. Steps with {@code allow_agent: false} are left to
 * people. An agent that cannot decide reports an error with its reason, which the engine escalates: a judgment
 * never fails an instance.
 */
public final class JudgmentResolver implements StepResolver {

    public static final String UNDECIDED = "agent_undecided";

    private final JudgmentAgent agent;
    private final String workerId;
    private final Clock clock;

    public JudgmentResolver(JudgmentAgent agent, String workerId, Clock clock) {
        this.agent = agent;
        this.workerId = workerId;
        this.clock = clock;
    }

    @Override
    public StepResult resolve(StepReady step) {
        if (step.judgment() == null || !step.judgment().allowAgent()) {
            return null;
        }
        try {
            AgentAnswer answer = agent.decide(JudgmentRequest.of(step));
            return new StepResult(step.workspace(), step.instanceId(), step.stepId(), step.attempt(), answer.outputs(), null,
                    new JudgmentDecision(JudgmentDecision.AGENT, answer.confidence(), answer.rationale(), answer.model()), workerId, clock.instant());
        } catch (UndecidableException e) {
            return new StepResult(step.workspace(), step.instanceId(), step.stepId(), step.attempt(), null, StepError.of(UNDECIDED, e.getMessage()),
                    new JudgmentDecision(JudgmentDecision.AGENT, null, e.getMessage(), agent.model()), workerId, clock.instant());
        }
    }
}
