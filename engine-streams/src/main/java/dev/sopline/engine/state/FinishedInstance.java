package dev.sopline.engine.state;

import java.time.Instant;

/**
 * An entry of the index of finished instances ({@link FinishedInstances}): which instance may be removed, and when.
 *
 * @param workspace workspace
 * @param instanceId the finished instance
 * @param expiresAt when its retention ends
 * @param format the stored record's format
 */
public record FinishedInstance(String workspace, String instanceId, Instant expiresAt, Integer format) {

    public static final int FORMAT = 1;

    public FinishedInstance {
        format = format == null ? FORMAT : format;
    }

    public FinishedInstance(String workspace, String instanceId, Instant expiresAt) {
        this(workspace, instanceId, expiresAt, FORMAT);
    }
}
