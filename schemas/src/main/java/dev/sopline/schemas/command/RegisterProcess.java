package dev.sopline.schemas.command;

import dev.sopline.schemas.definition.ProcessFile;

/**
 * Publish a validated process file as a version of its process.
 *
 * @param commandId correlates the reply
 * @param workspace target workspace
 * @param file the validated file
 * @param source the file's YAML text, kept so identical re-registrations can be told apart from changed ones
 */
public record RegisterProcess(String commandId, String workspace, ProcessFile file, String source) implements Command {

    @Override
    public String key() {
        return InstanceKeys.processKey(workspace, file.process().name());
    }
}
