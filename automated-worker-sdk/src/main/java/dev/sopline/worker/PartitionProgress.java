package dev.sopline.worker;

import java.util.OptionalLong;
import java.util.TreeSet;

/**
 * The steps one partition has handed to this worker and which of them have reported, so that the worker commits the
 * highest offset below which every step is done, while later steps of the partition may already be done too.
 * Used by the poll thread only.
 */
final class PartitionProgress {

    private final TreeSet<Long> outstanding = new TreeSet<>();
    private long next = -1;
    private int running;
    private boolean changed;
    private long returned = -1;
    private long committedOffset = -1;

    /** A record of this partition came to the worker; it is outstanding until {@link #done}. */
    void handedOut(long offset) {
        outstanding.add(offset);
        next = Math.max(next, offset + 1);
        changed = true;
    }

    /** Its handler began. */
    void started() {
        running++;
        changed = true;
    }

    /** The step at {@code offset} needs nothing more from this worker: reported, skipped, or given up on. */
    void done(long offset, boolean wasRunning) {
        if (outstanding.remove(offset)) {
            if (wasRunning) {
                running--;
            }
            changed = true;
        }
    }

    /** Steps of this partition whose handler runs now. */
    int running() {
        return running;
    }

    /** A poll returned this partition's records up to {@code end} (exclusive); they are handed out next. */
    void returned(long end) {
        returned = Math.max(returned, end);
    }

    /**
     * The offset to commit: the first outstanding step or, with none outstanding and every record returned handed out,
     * the consumer's {@code position}, which is past the last step handed out and past the transaction markers that
     * follow it, so an idle group shows no lag. A position not known is given as -1; empty when nothing is known.
     */
    OptionalLong committable(long position) {
        if (!outstanding.isEmpty()) {
            return OptionalLong.of(outstanding.first());
        }
        if (next < returned) {
            // Records returned and not handed out (their handing out ended on an error): not past them.
            return next < 0 ? OptionalLong.empty() : OptionalLong.of(next);
        }
        long offset = Math.max(next, position);
        return offset < 0 ? OptionalLong.empty() : OptionalLong.of(offset);
    }

    /**
     * Whether the offset or the steps running changed since the last {@link #committed}: a step handed out, begun or
     * done, or the consumer's position moved past markers while nothing was outstanding.
     */
    boolean changed(long position) {
        return changed || committable(position).orElse(-1) > committedOffset;
    }

    /** What {@link #committable} gave was sent; -1 when it gave nothing. */
    void committed(long offset) {
        changed = false;
        committedOffset = Math.max(committedOffset, offset);
    }
}
