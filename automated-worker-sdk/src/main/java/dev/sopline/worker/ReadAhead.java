package dev.sopline.worker;

/**
 * How many steps a Kafka worker takes from its partitions before it has a slot for them, and in which order it
 * starts them.
 *
 * <p>By default none: the worker takes a step only for a free slot, so the steps of its partitions run in the order
 * they were written, and after a crash no more than {@code concurrency} steps past the last commit ran already (they
 * are handed out again, and their handlers run again). Fair across workspaces, it reads up to {@code maxSteps} steps
 * ({@code maxBytes} of records) ahead, and starts them one workspace at a time in turn. Steps of all workspaces share
 * a topic, in the order they were written, so without it one workspace that starts ten thousand steps makes every
 * other wait behind all of them; with it, a step of another workspace waits for the steps running and at most one
 * of each other workspace's, as long as the backlog ahead of it fits in the read-ahead. The cost: more steps may run
 * again after a crash, up to the read-ahead, since commits still stop at the first step not done.
 */
record ReadAhead(boolean fair, int maxSteps, long maxBytes) {

    static ReadAhead none() {
        return new ReadAhead(false, 0, 0);
    }

    static ReadAhead fairAcrossWorkspaces(int maxSteps, long maxBytes) {
        if (maxSteps < 1 || maxBytes < 1) {
            throw new IllegalArgumentException("Expected a read-ahead of at least one step and one byte, but got %d steps and %d bytes"
                    .formatted(maxSteps, maxBytes));
        }
        return new ReadAhead(true, maxSteps, maxBytes);
    }

    /** Whether the worker should take no more steps now, with {@code active} running and these waiting. */
    boolean isFull(int concurrency, int active, WaitingSteps waiting) {
        if (!fair) {
            return active + waiting.size() >= concurrency;
        }
        return waiting.size() >= maxSteps || waiting.bytes() >= maxBytes;
    }

    /** At most this many records per poll: the slots when not reading ahead, so that none waits in this member. */
    int maxPollRecords(int concurrency) {
        return fair ? Math.max(concurrency, Math.min(maxSteps, 500)) : concurrency;
    }
}
