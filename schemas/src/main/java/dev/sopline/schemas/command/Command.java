package dev.sopline.schemas.command;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

/**
 * A request to change engine state, published to the engine's command topic. The engine answers every command
 * that carries a {@code commandId} with a {@link CommandReply} of the same id.
 *
 * <p>Commands about an instance are keyed by instance id, so one instance's commands stay ordered on one
 * partition; process registrations (and retirements) are keyed by {@code <workspace>/<process name>}, so one
 * partition decides whether a version already exists.
 *
 * <p>The engine also writes commands to its own topic ({@link FireTimer}, {@link ReleaseStart}, {@link ExpireInstance}, schedule starts):
 * whatever it decides comes from records in this one log, so replaying the log decides the same things again.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "command")
@JsonSubTypes({
    @JsonSubTypes.Type(value = RegisterProcess.class, name = "register_process"),
    @JsonSubTypes.Type(value = RetireProcess.class, name = "retire_process"),
    @JsonSubTypes.Type(value = StartInstance.class, name = "start_instance"),
    @JsonSubTypes.Type(value = SubmitStep.class, name = "submit_step"),
    @JsonSubTypes.Type(value = CancelInstance.class, name = "cancel_instance"),
    @JsonSubTypes.Type(value = RetryInstance.class, name = "retry_instance"),
    @JsonSubTypes.Type(value = ResolveCallback.class, name = "resolve_callback"),
    @JsonSubTypes.Type(value = ReportStepResult.class, name = "report_step_result"),
    @JsonSubTypes.Type(value = IdempotentCommand.class, name = "idempotent"),
    @JsonSubTypes.Type(value = FireTimer.class, name = "fire_timer"),
    @JsonSubTypes.Type(value = ReleaseStart.class, name = "release_start"),
    @JsonSubTypes.Type(value = ExpireInstance.class, name = "expire_instance")
})
public sealed interface Command permits RegisterProcess, RetireProcess, InstanceCommand, FireTimer, ReleaseStart, ExpireInstance {

    /** Correlates the reply; null for commands nobody waits for. */
    String commandId();

    /** Workspace the command acts in. */
    String workspace();

    /** The record key: which partition, and so which engine replica, decides. */
    String key();
}
