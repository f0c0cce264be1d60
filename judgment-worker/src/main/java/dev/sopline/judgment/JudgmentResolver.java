package dev.sopline.judgment;

import dev.sopline.schemas.definition.validation.OutputValidator;
import dev.sopline.schemas.event.StepReady;
import dev.sopline.schemas.event.StepResult;
import dev.sopline.schemas.instance.JudgmentDecision;
import dev.sopline.schemas.instance.StepError;
import dev.sopline.schemas.validation.Violation;
import dev.sopline.worker.StepResolver;
import java.time.Clock;
import java.util.List;

/**
 * Turns a judgment step-ready event into the agent's result. Steps with {@code allow_agent: false} are left to
 * people. Every result carries the decision: model, confidence, rationale and the hash of the prompt. The outputs are
 * checked against the step's declarations before they are reported; an agent that cannot decide, or whose outputs do
 * not fit, reports an error with its reason, which the engine escalates: a judgment never fails an instance. Outputs
 * below the step's threshold are the agent's proposal, which the engine keeps on the escalated step. The texts a
 * model writes (rationale, reason) are cut to the bounds the engine keeps ({@link StepResult#bounded()}).
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
        JudgmentRequest request = JudgmentRequest.of(step);
        AgentAnswer answer;
        try {
            answer = agent.decide(request);
        } catch (UndecidableException e) {
            return undecided(step, e.getMessage(), null, e.promptSha256());
        } catch (RuntimeException e) {
            // Not the worker's error: a judgment the agent cannot make goes to a person.
            return undecided(step, "The agent failed: " + e.getClass().getSimpleName(), null, null);
        }
        List<Violation> violations = OutputValidator.validate(request.outputs(), answer.outputs());
        if (!violations.isEmpty()) {
            return undecided(step, "The agent's outputs do not fit the step: " + AnswerParser.describe(violations),
                    answer.confidence(), answer.promptSha256());
        }
        return new StepResult(step.workspace(), step.instanceId(), step.stepId(), step.attempt(), answer.outputs(), null,
                new JudgmentDecision(JudgmentDecision.AGENT, answer.confidence(), answer.rationale(), answer.model(), answer.promptSha256()),
                workerId, clock.instant()).bounded();
    }

    private StepResult undecided(StepReady step, String reason, Double confidence, String promptSha256) {
        return new StepResult(step.workspace(), step.instanceId(), step.stepId(), step.attempt(), null, StepError.of(UNDECIDED, reason),
                new JudgmentDecision(JudgmentDecision.AGENT, confidence, reason, agent.model(), promptSha256), workerId, clock.instant()).bounded();
    }
}
