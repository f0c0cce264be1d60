package dev.sopline.gateway.web;

import java.util.concurrent.atomic.AtomicLong;

/** How many bytes of request bodies the gateway holds at once while they arrive, shared by every request. */
final class BufferBudget {

    private final long limit;
    private final AtomicLong used = new AtomicLong();

    BufferBudget(long limit) {
        this.limit = limit;
    }

    /** Takes {@code bytes} from the budget, or nothing and false when that would pass the limit. */
    boolean reserve(long bytes) {
        long after = used.addAndGet(bytes);
        if (after > limit) {
            used.addAndGet(-bytes);
            return false;
        }
        return true;
    }

    void release(long bytes) {
        used.addAndGet(-bytes);
    }

    /** The bytes taken now. */
    long used() {
        return used.get();
    }
}
