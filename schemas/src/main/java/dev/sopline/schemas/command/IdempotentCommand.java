package dev.sopline.schemas.command;

/**
 * A start, submit or cancel sent with an {@code Idempotency-Key}. The engine answers a repeat of the same key and
 * request with the first answer, and a repeat with another request with {@code idempotency_key_reused}; the record
 * lives in the engine's state on the partition that owns the instance, so every gateway replica answers the same.
 *
 * @param idempotency the key's scope and the request's fingerprint
 * @param command the command itself
 */
public record IdempotentCommand(IdempotencyKey idempotency, InstanceCommand command) implements InstanceCommand {

    @Override
    public String commandId() {
        return command.commandId();
    }

    @Override
    public String workspace() {
        return command.workspace();
    }

    @Override
    public String instanceId() {
        return command.instanceId();
    }
}
