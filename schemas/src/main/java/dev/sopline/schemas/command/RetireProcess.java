package dev.sopline.schemas.command;

/**
 * Retire a process for good: its schedule fires no more and no start of it is accepted. Sent for each process of a
 * workspace that is deleted. Keyed like a registration, so the partition that sets the process's schedule timers is
 * the one that learns it is retired. Sending it again changes nothing.
 *
 * @param commandId correlates the reply
 * @param workspace the process's workspace
 * @param process process name
 */
public record RetireProcess(String commandId, String workspace, String process) implements Command {

    @Override
    public String key() {
        return InstanceKeys.processKey(workspace, process);
    }
}
