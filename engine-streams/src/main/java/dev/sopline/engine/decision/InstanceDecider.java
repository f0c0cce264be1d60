package dev.sopline.engine.decision;

import dev.sopline.engine.decision.step.StepBehaviour;
import dev.sopline.engine.decision.step.StepBehaviours;
import dev.sopline.engine.decision.step.StepContext;
import dev.sopline.engine.state.Instance;
import dev.sopline.engine.state.StepRun;
import dev.sopline.engine.state.Timer;
import dev.sopline.schemas.command.CommandReply;
import dev.sopline.schemas.command.ErrorCodes;
import dev.sopline.schemas.definition.OutputDeclaration;
import dev.sopline.schemas.definition.ProcessDefinition;
import dev.sopline.schemas.definition.RetryPolicy;
import dev.sopline.schemas.definition.StepDefinition;
import dev.sopline.schemas.event.StepReady;
import dev.sopline.schemas.event.StepResult;
import dev.sopline.schemas.instance.Assignee;
import dev.sopline.schemas.instance.InstanceState;
import dev.sopline.schemas.instance.JudgmentDecision;
import dev.sopline.schemas.instance.StepError;
import dev.sopline.schemas.instance.StepState;
import dev.sopline.schemas.reference.EvaluationTooLarge;
import dev.sopline.schemas.reference.ReferenceContext;
import dev.sopline.schemas.reference.ReferenceEvaluator;
import dev.sopline.schemas.reference.TextBudget;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The rules of an instance's life, as pure functions of state, definition and time: which steps are active, who
 * resolves them, what their inputs are, when they are retried, escalated, timed out or failed, and what the
 * instance's outputs are. Nothing here touches Kafka, the clock or a random source: every id and time derives from the
 * command being decided, so a replay of the log decides the same. The command handlers check preconditions and call in.
 *
 * <p>An instance has a set of active steps, not a current step (docs/decisions.md, "The set of active steps"): a
 * completed step makes the steps that follow it active ({@link ProcessFlow}), a failed one ends the instance and
 * cancels the others, and the instance waits exactly when every active step waits on a person or a third party.
 */
public final class InstanceDecider {

    public static final String STEP_TIMEOUT = "step_timeout";

    private final CallbackIds callbackIds;
    private final InstanceBudget budget;
    private final StepBehaviours behaviours;

    public InstanceDecider(CallbackIds callbackIds, InstanceBudget budget, StepBehaviours behaviours) {
        this.callbackIds = callbackIds;
        this.budget = budget;
        this.behaviours = behaviours;
    }

    public InstanceDecider(CallbackIds callbackIds, InstanceBudget budget) {
        this(callbackIds, budget, StepBehaviours.standard());
    }

    public InstanceDecider(CallbackIds callbackIds) {
        this(callbackIds, InstanceBudget.defaults());
    }

    public InstanceBudget budget() {
        return budget;
    }

    /** The behaviour of the step's type. */
    public StepBehaviour behaviour(StepRun step) {
        return behaviours.of(step.type());
    }

    /** The step, within the decision {@code transition} is accumulating, handed to its type's behaviour. */
    public StepContext context(Transition transition, ProcessDefinition definition, StepRun step, Instant now) {
        return new StepContext(this, transition, definition, definition.step(step.id()).orElseThrow(), step, now);
    }

    /** A new instance in {@code running}, with its first steps active: one step, or the first of each branch of a block. */
    public Transition begin(Instance created, ProcessDefinition definition, Instant now) {
        Transition transition = new Transition(created);
        budget.charge(transition, created.inputs(), "the inputs");
        budget.charge(transition, created.triggerPayload(), "the trigger payload");
        transition.created();
        activate(transition, definition, ProcessFlow.of(definition).entry(), now);
        return transition;
    }

    /**
     * Completes an active step with its outputs and starts what follows it: the next step of its branch or of the
     * process, the step after a block once every branch has completed, or, after the last step, the end.
     */
    public void completeStep(Transition transition, ProcessDefinition definition, StepRun step, Map<String, Object> outputs,
                             JudgmentDecision decision, Instant now) {
        budget.charge(transition, outputs, "the outputs of step '%s'".formatted(step.id()));
        transition.updateStep(step.complete(outputs, decision, now));
        ProcessFlow.Next next = ProcessFlow.of(definition)
                .afterCompleted(step.id(), id -> transition.instance().stepState(id) == StepState.COMPLETED);
        if (next.end()) {
            complete(transition, definition, now);
        } else {
            activate(transition, definition, next.steps(), now);
        }
    }

    /**
     * A failed attempt of an automated step: the next attempt waits for its backoff, or, after the last attempt, the
     * step and the instance fail.
     */
    public void failAttempt(Transition transition, ProcessDefinition definition, StepRun step, StepError reported, Instant now) {
        StepError error = withBoundedMessage(reported);
        RetryPolicy retry = definition.step(step.id()).orElseThrow().retryOrDefault();
        // Counted from the round an operator's retry began: the retried step has its whole policy again.
        if (step.attemptsThisRound() >= retry.maxAttempts()) {
            failStep(transition, step, error, now);
            return;
        }
        Instant retryAt = now.plus(retry.backoffAfter(step.attemptsThisRound()));
        transition.updateStep(step.attemptFailed(error, retryAt));
        transition.timer(new Timer(retryAt, Timer.Kind.RETRY, transition.instance().workspace(),
                transition.instance().id(), step.id(), step.attempt()));
    }

    /**
     * The running attempt's worker is alive: its deadline moves to {@code deadline}. No timer is set here: the one set
     * for the earlier deadline fires first, finds the deadline later than itself and is set again there
     * ({@code TimerHandler}), so an attempt has one timeout timer however often its worker sends heartbeats.
     */
    public void extendDeadline(Transition transition, StepRun step, Instant deadline) {
        transition.updateStep(step.withDeadline(deadline));
    }

    /**
     * The attempt's timeout timer fired before its deadline, which heartbeats moved on: it is set again at the
     * deadline, and the step keeps where, so that the timer is removed when the attempt ends ({@code AttemptTimers}).
     */
    public void moveTimeoutTimer(Transition transition, StepRun step) {
        StepRun moved = step.withTimeoutTimerAt(step.deadline());
        transition.updateStep(moved);
        scheduleTimeout(transition, moved, step.deadline());
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
        settle(transition);
    }

    /** A third party's callback body: counted whole, whatever part of it becomes outputs. */
    public void receiveCallback(Transition transition, Object payload) {
        budget.charge(transition, payload, "the callback payload");
    }

    private static StepError withBoundedMessage(StepError error) {
        return error == null ? null : error.bounded();
    }

    /** Fails the step and, with it, the instance: every other active step is cancelled, and the error names the step. */
    public void failStep(Transition transition, StepRun step, StepError error, Instant now) {
        transition.updateStep(step.fail(error, now));
        cancelActiveSteps(transition, now);
        Instance instance = transition.instance();
        transition.replaceInstance(instance.ended(InstanceState.FAILED, instance.outputs(), error.forStep(step.id()), now));
    }

    /** A step's timeout passed, as its type handles it. */
    public void timeOut(Transition transition, ProcessDefinition definition, StepRun step, Instant now) {
        behaviour(step).onTimeout(context(transition, definition, step, now));
    }

    /** Fails the instance for a reason outside any step's control, with its first active step if it has one. */
    public void failInstance(Transition transition, StepError error, Instant now) {
        List<StepRun> active = transition.instance().activeSteps();
        if (!active.isEmpty()) {
            failStep(transition, active.get(0), error, now);
            return;
        }
        Instance instance = transition.instance();
        transition.replaceInstance(instance.ended(InstanceState.FAILED, instance.outputs(), error, now));
    }

    /** Cancels the instance and every active step. */
    public void cancel(Transition transition, Instant now) {
        cancelActiveSteps(transition, now);
        Instance instance = transition.instance();
        transition.replaceInstance(instance.ended(InstanceState.CANCELLED, instance.outputs(), null, now));
    }

    private void cancelActiveSteps(Transition transition, Instant now) {
        for (StepRun active : transition.instance().activeSteps()) {
            transition.updateStep(behaviour(active).onCancel(active, now));
        }
    }

    /** The outputs a step resolves to: what was submitted, plus every {@code value} expression evaluated. */
    public Map<String, Object> stepOutputs(Instance instance, StepDefinition step, Map<String, Object> submitted, Object callbackPayload) {
        ReferenceContext context = context(instance).withCallbackPayload(callbackPayload);
        TextBudget text = new TextBudget();
        Map<String, Object> outputs = new LinkedHashMap<>();
        for (OutputDeclaration output : step.outputs()) {
            if (output.isComputed()) {
                outputs.put(output.name(), evaluate(output.value(), context, text));
            } else if (submitted.containsKey(output.name())) {
                outputs.put(output.name(), submitted.get(output.name()));
            }
        }
        return outputs;
    }

    /** The instance completes with its outputs. */
    private void complete(Transition transition, ProcessDefinition definition, Instant now) {
        Instance instance = transition.instance();
        Map<String, Object> outputs = instanceOutputs(instance, definition);
        budget.checkCopy(instance, outputs, "the outputs");
        transition.replaceInstance(instance.ended(InstanceState.COMPLETED, outputs, null, now));
    }

    /** The steps become active at once, in file order, each offered to its resolver; then the instance settles. */
    private void activate(Transition transition, ProcessDefinition definition, List<String> stepIds, Instant now) {
        for (String stepId : stepIds) {
            activateAttempt(transition, definition, stepId, 1, now);
        }
        settle(transition);
    }

    /**
     * Reopens a failed instance: the failed step, and every step its failure cancelled (the other branches of a
     * parallel block), start a new attempt as if just reached, with fresh inputs, a fresh timeout and, for a webhook,
     * a fresh callback URL; the errors are cleared and the instance settles to running or waiting. A new attempt for
     * the cancelled steps too, so a late result of the interrupted attempt is ignored like any stale one.
     *
     * @return the failed step, now active with its new attempt
     */
    public StepRun reopen(Transition transition, ProcessDefinition definition, Instant now) {
        Instance failed = transition.instance();
        String failedStepId = failed.error().stepId();
        transition.reopen(new Instance(failed.id(), failed.workspace(), failed.process(), failed.version(), failed.state(),
                failed.inputs(), failed.outputs(), null, failed.triggerPayload(), failed.startedAt(), null, failed.steps(),
                failed.dataBytes()));
        for (StepRun step : failed.steps()) {
            if (step.id().equals(failedStepId) || step.state() == StepState.CANCELLED) {
                // The new attempt drops an agent's earlier proposal; kept in the count, each retry would fill the budget.
                budget.release(transition, step.proposal());
                activateAttempt(transition, definition, step.id(), step.attempt() + 1, now);
            }
        }
        settle(transition);
        return transition.instance().step(failedStepId).orElseThrow();
    }

    /** One step becomes active with {@code attempt}, offered to its resolver, its timeout set. */
    private void activateAttempt(Transition transition, ProcessDefinition definition, String stepId, int attempt, Instant now) {
        Instance instance = transition.instance();
        StepDefinition stepDefinition = definition.step(stepId).orElseThrow();
        Map<String, Object> inputs = resolve(stepDefinition.inputs(), context(instance));
        budget.checkCopy(instance, inputs, "the inputs of step '" + stepDefinition.id() + "'");
        StepBehaviour behaviour = behaviours.of(stepDefinition.type());
        String callbackId = behaviour.issuesCallback()
                ? callbackIds.of(instance.workspace(), instance.id(), stepDefinition.id(), attempt) : null;
        Instant deadline = deadline(stepDefinition, now);
        StepRun step = instance.step(stepId).orElseThrow()
                .activate(behaviour.assignee(stepDefinition), attempt, inputs, callbackId, now, deadline);
        transition.updateStep(step);
        scheduleTimeout(transition, step, deadline);
        transition.ready(stepReady(transition.instance(), definition, stepDefinition, step));
    }

    /**
     * The instance waits when every active step waits on a person or a third party (a form, a webhook, an escalated
     * judgment), and runs while any is with a machine. A step waiting for its retry's backoff is with its worker.
     */
    private static void settle(Transition transition) {
        List<StepRun> active = transition.instance().activeSteps();
        boolean waiting = !active.isEmpty() && active.stream()
                .allMatch(step -> step.assignee() == Assignee.HUMAN || step.assignee() == Assignee.THIRD_PARTY);
        transition.moveTo(waiting ? InstanceState.WAITING : InstanceState.RUNNING);
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

    private StepReady stepReady(Instance instance, ProcessDefinition definition, StepDefinition stepDefinition, StepRun step) {
        return new StepReady(instance.workspace(), instance.id(), instance.process(), instance.version(), step.id(),
                stepDefinition.label(), stepDefinition.type(), stepDefinition.run(), step.attempt(), step.inputs(),
                stepDefinition.outputs(), stepDefinition.judgment(), step.callbackId(), step.deadline(), step.readyAt(),
                stepDefinition.heartbeatTimeout(), callbackIds.resultKey(instance.workspace(), instance.id(), step.id(), step.attempt()));
    }

    /** Whether a result from {@code sop.step-results} carries what its attempt's key lets it ({@link CallbackIds#acceptsResultKey}). */
    public boolean acceptsResultKey(StepResult result) {
        return callbackIds.acceptsResultKey(result.workspace(), result.instanceId(), result.stepId(), result.attempt(), result.resultKey());
    }

    /**
     * Each declared output takes its {@code value} expression, else the output of the same name from the latest
     * completed step that has one.
     */
    private static Map<String, Object> instanceOutputs(Instance instance, ProcessDefinition definition) {
        ReferenceContext context = context(instance);
        TextBudget text = new TextBudget();
        Map<String, Object> outputs = new LinkedHashMap<>();
        for (OutputDeclaration output : definition.outputs()) {
            if (output.isComputed()) {
                outputs.put(output.name(), evaluate(output.value(), context, text));
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
        return (Map<String, Object>) evaluate(mapping, context, new TextBudget());
    }

    /** A definition that repeats references to large data is refused as data over the budget is, before the copy is made. */
    private static Object evaluate(Object value, ReferenceContext context, TextBudget text) {
        try {
            return ReferenceEvaluator.evaluate(value, context, text);
        } catch (EvaluationTooLarge tooLarge) {
            throw new InstanceTooLarge(tooLarge.getMessage());
        }
    }

    /** Gathered in one map: adding the steps one context at a time copied it once per step, quadratic in the steps. */
    private static ReferenceContext context(Instance instance) {
        Map<String, Map<String, Object>> stepOutputs = new LinkedHashMap<>();
        for (StepRun step : instance.steps()) {
            if (step.state() == StepState.COMPLETED && step.outputs() != null) {
                stepOutputs.put(step.id(), step.outputs());
            }
        }
        return new ReferenceContext(instance.inputs(), stepOutputs, instance.triggerPayload(), null);
    }


    /** The rejection of an action on a step that is not active or an instance that has ended. */
    public static CommandReply invalidTransition(String commandId, String message) {
        return CommandReply.rejected(commandId, 422, ErrorCodes.INVALID_TRANSITION, message);
    }
}
