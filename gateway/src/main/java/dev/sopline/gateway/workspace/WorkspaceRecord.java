package dev.sopline.gateway.workspace;

import java.time.Instant;

/**
 * A workspace as stored in {@code sop.workspaces}, keyed by its name. A deleted workspace keeps its record, so its
 * name is never given out again and its tokens stay refused whatever else is left of it.
 *
 * @param name the workspace's name, also its key
 * @param createdAt when it was created
 * @param deletedAt when its deletion began, or null while it is live
 * @param clearedAt when its deletion finished (tokens revoked, instances cancelled), or null
 */
public record WorkspaceRecord(String name, Instant createdAt, Instant deletedAt, Instant clearedAt) {

    public static WorkspaceRecord created(String name, Instant now) {
        return new WorkspaceRecord(name, now, null, null);
    }

    public boolean isDeleted() {
        return deletedAt != null;
    }

    /** Deleted, but its tokens and instances may not all be dealt with: the gateway stopped before it finished. */
    public boolean isDeletionUnfinished() {
        return deletedAt != null && clearedAt == null;
    }

    public WorkspaceRecord deleted(Instant when) {
        return new WorkspaceRecord(name, createdAt, when, null);
    }

    public WorkspaceRecord cleared(Instant when) {
        return new WorkspaceRecord(name, createdAt, deletedAt, when);
    }
}
