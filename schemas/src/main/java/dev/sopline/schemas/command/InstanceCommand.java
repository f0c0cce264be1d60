package dev.sopline.schemas.command;

/**
 * A command about one instance. Keyed by the bare instance id, like every public topic, so that commands and
 * worker results of one instance meet on one partition; the engine stores the instance under
 * {@code <workspace>/<id>}, so a command naming another workspace finds nothing.
 */
public sealed interface InstanceCommand extends Command
        permits StartInstance, SubmitStep, CancelInstance, RetryInstance, ResolveCallback, ReportStepResult, IdempotentCommand {

    String instanceId();

    @Override
    default String key() {
        return instanceId();
    }
}
