package dev.sopline.engine.decision;

import dev.sopline.engine.state.Instance;
import dev.sopline.engine.state.StepRun;
import dev.sopline.engine.state.Timer;
import dev.sopline.schemas.command.CommandReply;
import dev.sopline.schemas.command.ErrorCodes;
import dev.sopline.schemas.definition.OutputDeclaration;
import dev.sopline.schemas.definition.ProcessDefinition;
import dev.sopline.schemas.definition.RetryPolicy;
import dev.sopline.schemas.definition.StepDefinition;
import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.event.StepReady;
import dev.sopline.schemas.instance.Assignee;
import dev.sopline.schemas.instance.InstanceState;
import dev.sopline.schemas.instance.JudgmentDecision;
import dev.sopline.schemas.instance.StepError;
import dev.sopline.schemas.instance.StepState;
import dev.sopline.schemas.reference.ReferenceContext;
import dev.sopline.schemas.reference.ReferenceEvaluator;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The rules of an instance's life, as pure functions of state, definition and time: which step comes next, who
 * resolves it, what its inputs are, when it is retried, escalated, timed out or failed, and what the instance's
 * outputs are. Nothing here touches Kafka, the clock or a random source: every id and time derives from the command
 * being decided, so a replay of the log decides the same. The command handlers check preconditions and call in.
 */
public final class InstanceDecider {

    public static final String STEP_TIMEOUT = "step_timeout";

    /** Longer worker error messages are cut: a worker's text must not fill the instance record. */
    static final int MAX_ERROR_MESSAGE_CHARS = 4_096;

    private final CallbackIds callbackIds;
    private final InstanceBudget budget;

    public InstanceDecider(CallbackIds callbackIds, InstanceBudget budget) {
        this.callbackIds = callbackIds;
        this.budget = budget;
    }

    public InstanceDecider(CallbackIds callbackIds) {
        this(callbackIds, InstanceBudget.defaults());
    }

    public InstanceBudget budget() {
        return budget;
    }

    /** A new instance in {@code running}, with its first step active. */
    public Transition begin(Instance created, ProcessDefinition definition, Instant now) {
        Transition transition = new Transition(created);
        budget.charge(transition, created.inputs(), "the inputs");
        budget.charge(transition, created.triggerPayload(), "the trigger payload");
        transition.created();
        activate(transition, definition, 0, now);
        return transition;
    }

    /** Completes the active step with its outputs and moves on to the next step, or completes the instance. */
    public void completeStep(Transition transition, ProcessDefinition definition, StepRun step, Map<String, Object> outputs,
                             JudgmentDecision decision, Instant now) {
        budget.charge(transition, outputs, "the outputs of step '%s'".formatted(step.id()));
        transition.updateStep(step.complete(outputs, decision, now));
        activate(transition, definition, transition.instance().indexOf(step.id()) + 1, now);
    }

    /**
     * A failed attempt of an automated step: the next attempt waits for its backoff, or, after the last attempt, the
     * step and the instance fail.
     */
    public void failAttempt(Transition transition, ProcessDefinition definition, StepRun step, StepError reported, Instant now) {
        StepError error = withBoundedMessage(reported);
        RetryPolicy retry = definition.step(step.id()).orElseThrow().retryOrDefault();
        if (step.attempt() >= retry.maxAttempts()) {
            failStep(transition, step, error, now);
            return;
        }
        Instant retryAt = now.plus(retry.backoffAfter(step.attempt()));
        transition.updateStep(step.attemptFailed(error, retryAt));
        transition.timer(new Timer(retryAt, Timer.Kind.RETRY, transition.instance().workspace(),
                transition.instance().id(), step.id(), step.attempt()));
    }

    /** Offers the next attempt once the backoff of the failed one has passed. */
    public void retry(Transition transition, ProcessDefinition definition, StepRun step, Instant now) {
        StepDefinition stepDefinition = definition.step(step.id()).orElseThrow();
        Instant deadline = deadline(stepDefinition, now);
        StepRun next = step.retryAfterBackoff(now, deadline);
        transition.updateStep(next);
        scheduleTimeout(transition, next, deadline);
        transition.ready(stepReady(transition.instance(), definition, stepDefinition, next));
    }

    /** A judgment the agent was not sure about, or could not make: a person takes over. */
    public void escalate(Transition transition, StepRun step, JudgmentDecision agentDecision, Map<String, Object> proposal) {
        budget.charge(transition, proposal, "the agent's proposal for step '%s'".formatted(step.id()));
        transition.updateStep(step.escalate(agentDecision, proposal));
        transition.moveTo(InstanceState.WAITING);
    }

    /** A third party's callback body: counted whole, whatever part of it becomes outputs. */
    public void receiveCallback(Transition transition, Object payload) {
        budget.charge(transition, payload, "the callback payload");
    }

    private static StepError withBoundedMessage(StepError error) {
        if (error == null || error.message() == null || error.message().length() <= MAX_ERROR_MESSAGE_CHARS) {
            return error;
        }
        return new StepError(error.stepId(), error.code(), error.message().substring(0, MAX_ERROR_MESSAGE_CHARS) + "…");
    }

    /** Fails the step and, with it, the instance. */
    public void failStep(Transition transition, StepRun step, StepError error, Instant now) {
        transition.updateStep(step.fail(error, now));
        Instance instance = transition.instance();
        transition.replaceInstance(instance.ended(InstanceState.FAILED, instance.outputs(), error.forStep(step.id()), now));
    }

    /** Fails the instance for a reason outside any step's control, with its active step if it has one. */
    public void failInstance(Transition transition, StepError error, Instant now) {
        Optional<StepRun> active = transition.instance().activeStep();
        if (active.isPresent()) {
            failStep(transition, active.get(), error, now);
            return;
        }
        Instance instance = transition.instance();
        transition.replaceInstance(instance.ended(InstanceState.FAILED, instance.outputs(), error, now));
    }

    /** Cancels the instance and its active step. */
    public void cancel(Transition transition, Instant now) {
        transition.instance().activeStep().ifPresent(step -> transition.updateStep(step.cancel(now)));
        Instance instance = transition.instance();
        transition.replaceInstance(instance.ended(InstanceState.CANCELLED, instance.outputs(), null, now));
    }

    /** The outputs a step resolves to: what was submitted, plus every {@code value} expression evaluated. */
    public Map<String, Object> stepOutputs(Instance instance, StepDefinition step, Map<String, Object> submitted, Object callbackPayload) {
        ReferenceContext context = context(instance).withCallbackPayload(callbackPayload);
        Map<String, Object> outputs = new LinkedHashMap<>();
        for (OutputDeclaration output : step.outputs()) {
            if (output.isComputed()) {
                outputs.put(output.name(), ReferenceEvaluator.evaluate(output.value(), context));
            } else if (submitted.containsKey(output.name())) {
                outputs.put(output.name(), submitted.get(output.name()));
            }
        }
        return outputs;
    }

    private void activate(Transition transition, ProcessDefinition definition, int index, Instant now) {
        Instance instance = transition.instance();
        if (index >= definition.steps().size()) {
            Map<String, Object> outputs = instanceOutputs(instance, definition);
            budget.checkCopy(instance, outputs, "the outputs");
            transition.replaceInstance(instance.ended(InstanceState.COMPLETED, outputs, null, now));
            return;
        }
        StepDefinition stepDefinition = definition.steps().get(index);
        Map<String, Object> inputs = resolve(stepDefinition.inputs(), context(instance));
        budget.checkCopy(instance, inputs, "the inputs of step '%s'".formatted(stepDefinition.id()));
        Assignee assignee = assignee(stepDefinition);
        String callbackId = stepDefinition.type() == StepType.WEBHOOK
                ? callbackIds.of(instance.workspace(), instance.id(), stepDefinition.id(), 1) : null;
        Instant deadline = deadline(stepDefinition, now);
        StepRun step = instance.steps().get(index).activate(assignee, 1, inputs, callbackId, now, deadline);
        transition.updateStep(step);
        transition.moveTo(assignee == Assignee.HUMAN || assignee == Assignee.THIRD_PARTY ? InstanceState.WAITING : InstanceState.RUNNING);
        scheduleTimeout(transition, step, deadline);
        transition.ready(stepReady(transition.instance(), definition, stepDefinition, step));
    }

    private static void scheduleTimeout(Transition transition, StepRun step, Instant deadline) {
        if (deadline != null) {
            transition.timer(new Timer(deadline, Timer.Kind.STEP_TIMEOUT, transition.instance().workspace(),
                    transition.instance().id(), step.id(), step.attempt()));
        }
    }

    private static Instant deadline(StepDefinition step, Instant now) {
        return step.timeoutDuration().map(now::plus).orElse(null);
    }

    private static Assignee assignee(StepDefinition step) {
        return switch (step.type()) {
            case FORM -> Assignee.HUMAN;
            case AUTOMATED -> Assignee.WORKER;
            case JUDGMENT -> step.judgment() != null && step.judgment().allowAgent() ? Assignee.AGENT : Assignee.HUMAN;
            case WEBHOOK -> Assignee.THIRD_PARTY;
        };
    }

    private static StepReady stepReady(Instance instance, ProcessDefinition definition, StepDefinition stepDefinition, StepRun step) {
        return new StepReady(instance.workspace(), instance.id(), instance.process(), instance.version(), step.id(),
                stepDefinition.label(), stepDefinition.type(), stepDefinition.run(), step.attempt(), step.inputs(),
                stepDefinition.outputs(), stepDefinition.judgment(), step.callbackId(), step.deadline(), step.readyAt());
    }

    /**
     * Each declared output takes its {@code value} expression, else the output of the same name from the latest
     * completed step that has one.
     */
    private static Map<String, Object> instanceOutputs(Instance instance, ProcessDefinition definition) {
        ReferenceContext context = context(instance);
        Map<String, Object> outputs = new LinkedHashMap<>();
        for (OutputDeclaration output : definition.outputs()) {
            if (output.isComputed()) {
                outputs.put(output.name(), ReferenceEvaluator.evaluate(output.value(), context));
                continue;
            }
            List<StepRun> steps = instance.steps();
            for (int i = steps.size() - 1; i >= 0; i--) {
                StepRun step = steps.get(i);
                if (step.state() == StepState.COMPLETED && step.outputs() != null && step.outputs().containsKey(output.name())) {
                    outputs.put(output.name(), step.outputs().get(output.name()));
                    break;
                }
            }
        }
        return outputs;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> resolve(Map<String, Object> mapping, ReferenceContext context) {
        return (Map<String, Object>) ReferenceEvaluator.evaluate(mapping, context);
    }

    private static ReferenceContext context(Instance instance) {
        ReferenceContext context = new ReferenceContext(instance.inputs(), Map.of(), instance.triggerPayload(), null);
        for (StepRun step : instance.steps()) {
            if (step.state() == StepState.COMPLETED && step.outputs() != null) {
                context = context.withStepOutputs(step.id(), step.outputs());
            }
        }
        return context;
    }


    /** The rejection of an action on a step that is not active or an instance that has ended. */
    public static CommandReply invalidTransition(String commandId, String message) {
        return CommandReply.rejected(commandId, 422, ErrorCodes.INVALID_TRANSITION, message);
    }
}
