package dev.sopline.engine.decision;

import dev.sopline.engine.state.Instance;
import dev.sopline.engine.state.StepRun;
import dev.sopline.schemas.command.Actor;
import dev.sopline.schemas.command.CancelInstance;
import dev.sopline.schemas.command.Command;
import dev.sopline.schemas.command.FireTimer;
import dev.sopline.schemas.command.IdempotentCommand;
import dev.sopline.schemas.command.ReleaseStart;
import dev.sopline.schemas.command.ReportStepResult;
import dev.sopline.schemas.command.ResolveCallback;
import dev.sopline.schemas.command.RetryInstance;
import dev.sopline.schemas.command.StartInstance;
import dev.sopline.schemas.command.SubmitStep;
import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.event.InstanceStateChanged;
import dev.sopline.schemas.event.StepStateChanged;
import dev.sopline.schemas.instance.HistoryEntry;
import dev.sopline.schemas.instance.InstanceState;
import dev.sopline.schemas.instance.JudgmentDecision;
import dev.sopline.schemas.instance.StepError;
import dev.sopline.schemas.instance.StepState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The history entries one decision adds (CONTRACT section 11): derived from the state changes the decision publishes,
 * plus the new attempts of steps, which change no state, and who caused each. What the command acted on directly (the
 * step it resolved, the instance it started, cancelled or retried, what a timer fired for) is the command's sender's;
 * what followed by itself (the next step starting, the instance completing or waiting) is the engine's, except that an
 * agent's escalation puts the instance in {@code waiting} in the agent's name, with its decision and proposal.
 */
public final class HistoryEntries {

    private HistoryEntries() {}

    /** The entries, unnumbered, in the order things happened; empty when the decision changes nothing. */
    public static List<HistoryEntry> of(Command received, Instance before, Decision decision, Instant now) {
        if (decision.newState().isEmpty()) {
            return List.of();
        }
        Command command = unwrap(received);
        Instance after = decision.newState().get();
        Actor sender = sender(command, before);
        Optional<String> actedOnStep = stepActedOn(command, before);
        boolean wholeInstance = command instanceof CancelInstance || command instanceof RetryInstance || command instanceof FireTimer;
        Optional<JudgmentDecision> escalation = escalation(command).filter(ignored -> actedOnStep.flatMap(after::step)
                .filter(step -> step.isActive() && step.escalated()).isPresent());
        // The proposal goes on the instance's running -> waiting entry (CONTRACT section 11), once: on the step's entry
        // too, an agent's proposal near the instance's budget made a history record past the broker's limit. Only when
        // the instance was waiting already does the step's entry carry it.
        boolean proposalOnInstanceEntry = escalation.isPresent() && decision.events().stream()
                .anyMatch(event -> event instanceof InstanceStateChanged changed && changed.to() == InstanceState.WAITING);
        List<HistoryEntry> entries = new ArrayList<>();
        for (Object event : decision.events()) {
            if (event instanceof InstanceStateChanged changed) {
                Actor by = changed.from() == null || wholeInstance ? sender : Actor.BY_ENGINE;
                Map<String, Object> detail = null;
                if (escalation.isPresent() && changed.to() == InstanceState.WAITING) {
                    by = sender;
                    detail = escalationDetail(escalation.get(), after, actedOnStep.orElse(null));
                }
                entries.add(new HistoryEntry(0, now, HistoryEntry.INSTANCE, null,
                        changed.from() == null ? null : changed.from().wireName(), changed.to().wireName(), null, by, detail));
            } else if (event instanceof StepStateChanged changed) {
                String stepId = changed.step().id();
                boolean direct = wholeInstance || actedOnStep.filter(stepId::equals).isPresent();
                entries.add(new HistoryEntry(0, now, HistoryEntry.STEP, stepId, changed.from().wireName(), changed.to().wireName(),
                        changed.step().attempt(), direct ? sender : Actor.BY_ENGINE, stepDetail(changed, after, !proposalOnInstanceEntry)));
            }
        }
        entries.addAll(newAttempts(before, after, now));
        return entries;
    }

    /**
     * A step that stayed active with a higher attempt: its backoff passed and the timer offered the next attempt,
     * with the error of the attempt that failed.
     */
    private static List<HistoryEntry> newAttempts(Instance before, Instance after, Instant now) {
        if (before == null) {
            return List.of();
        }
        List<HistoryEntry> entries = new ArrayList<>();
        for (StepRun was : before.steps()) {
            StepRun is = after.step(was.id()).orElse(null);
            if (is != null && was.isActive() && is.isActive() && is.attempt() > was.attempt()) {
                Map<String, Object> detail = was.error() == null ? null : Map.of("error", errorDetail(was.error()));
                entries.add(new HistoryEntry(0, now, HistoryEntry.STEP, is.id(), StepState.ACTIVE.wireName(),
                        StepState.ACTIVE.wireName(), is.attempt(), Actor.BY_TIMER, detail));
            }
        }
        return entries;
    }

    private static Map<String, Object> stepDetail(StepStateChanged changed, Instance after, boolean withProposal) {
        Map<String, Object> detail = new LinkedHashMap<>();
        // A step cancelled while its failed attempt waited for the backoff keeps that attempt's error, which no new
        // attempt's entry will carry now.
        if ((changed.to() == StepState.FAILED || changed.to() == StepState.CANCELLED) && changed.step().error() != null) {
            detail.put("error", errorDetail(changed.step().error()));
        }
        if (changed.step().decision() != null && (changed.to() == StepState.COMPLETED || changed.from() == changed.to())) {
            detail.put("decision", changed.step().decision());
        }
        if (changed.from() == changed.to() && Boolean.TRUE.equals(changed.step().escalated())) {
            detail.put("escalated", true);
            if (withProposal) {
                after.step(changed.step().id()).map(StepRun::proposal).ifPresent(proposal -> detail.put("proposal", proposal));
            }
        }
        return detail.isEmpty() ? null : detail;
    }

    private static Map<String, Object> escalationDetail(JudgmentDecision decision, Instance after, String stepId) {
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("decision", decision);
        Optional.ofNullable(stepId).flatMap(after::step).map(StepRun::proposal).ifPresent(proposal -> detail.put("proposal", proposal));
        return detail;
    }

    private static Map<String, Object> errorDetail(StepError error) {
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("code", error.code());
        if (error.message() != null) {
            detail.put("message", error.message());
        }
        return detail;
    }

    /** An agent's decision; an escalation when it left its step active and escalated. */
    private static Optional<JudgmentDecision> escalation(Command command) {
        if (command instanceof ReportStepResult report && report.result().decision() != null
                && JudgmentDecision.AGENT.equals(report.result().decision().by())) {
            return Optional.of(report.result().decision());
        }
        return Optional.empty();
    }

    private static Command unwrap(Command command) {
        Command inner = command instanceof ReleaseStart release ? release.start() : command;
        return inner instanceof IdempotentCommand idempotent ? idempotent.command() : inner;
    }

    private static Optional<String> stepActedOn(Command command, Instance before) {
        if (command instanceof SubmitStep submit) {
            return Optional.of(submit.stepId());
        }
        if (command instanceof ReportStepResult report) {
            return Optional.of(report.result().stepId());
        }
        if (command instanceof ResolveCallback callback && before != null) {
            return before.stepWithCallback(callback.callbackId()).map(StepRun::id);
        }
        return Optional.empty();
    }

    /** Who sent the command, as the history names them. */
    static Actor sender(Command command, Instance before) {
        if (command instanceof StartInstance start) {
            if (StartInstance.SCHEDULE.equals(start.origin())) {
                return Actor.BY_TIMER;
            }
            return StartInstance.TRIGGER.equals(start.origin()) ? new Actor(Actor.CALLBACK, "trigger", null) : token(start.actor(), Actor.TOKEN);
        }
        if (command instanceof SubmitStep submit) {
            boolean automated = before != null && before.step(submit.stepId()).map(StepRun::type).orElse(null) == StepType.AUTOMATED;
            return token(submit.actor(), automated ? Actor.WORKER : Actor.TOKEN);
        }
        if (command instanceof CancelInstance cancel) {
            return token(cancel.actor(), Actor.TOKEN);
        }
        if (command instanceof RetryInstance retry) {
            return token(retry.actor(), Actor.TOKEN);
        }
        if (command instanceof ResolveCallback callback) {
            return new Actor(Actor.CALLBACK, callback.callbackId(), null);
        }
        if (command instanceof ReportStepResult report) {
            JudgmentDecision decision = report.result().decision();
            return decision != null && JudgmentDecision.AGENT.equals(decision.by())
                    ? new Actor(Actor.AGENT, decision.model(), null)
                    : new Actor(Actor.WORKER, report.result().worker(), null);
        }
        return command instanceof FireTimer ? Actor.BY_TIMER : Actor.BY_ENGINE;
    }

    /** The token as the gateway named it, typed as what it acted as (a person or an HTTP worker). */
    private static Actor token(Actor actor, String type) {
        return actor == null ? new Actor(type, null, null) : new Actor(type, actor.id(), actor.name());
    }
}
