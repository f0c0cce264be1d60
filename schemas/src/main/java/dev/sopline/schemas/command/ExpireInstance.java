package dev.sopline.schemas.command;

import java.time.Instant;

/**
 * A finished instance's retention has passed. Like {@link FireTimer}, the engine's punctuation only writes this
 * command to its own command topic; the instance and everything that belongs to it are removed when the command is
 * read back, so replaying the log after a crash removes exactly the same instances. Nobody waits for a reply. It is
 * written outside the engine's transaction and may be written more than once: a repeat finds the instance gone and
 * does nothing.
 *
 * @param workspace workspace
 * @param instanceId the finished instance
 * @param expiresAt when its retention ended
 */
public record ExpireInstance(String workspace, String instanceId, Instant expiresAt) implements Command {

    @Override
    public String commandId() {
        return null;
    }

    /** The instance's own partition, where it is stored. */
    @Override
    public String key() {
        return instanceId;
    }
}
