package dev.sopline.gateway.web;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How many bytes of request bodies the gateway holds at once while they arrive, shared by every request, and how
 * many of them one client may hold: without a share, one client that sent bodies it never finished, up to its
 * connection limit, could hold the whole budget for the read timeout at a time and have every other client's bodies
 * turned away with 503. A client is an IPv4 address or an IPv6 /64 ({@link ConnectionsPerClient#clientOf(String)}).
 */
final class BufferBudget {

    /** The part of the budget one client may hold. */
    static final int CLIENT_SHARE_DIVISOR = 8;

    private final long limit;
    private final long perClient;
    private final AtomicLong used = new AtomicLong();
    /** The bytes each client holds now; a client holding none has no entry. */
    private final Map<String, Long> byClient = new ConcurrentHashMap<>();

    BufferBudget(long limit) {
        this.limit = limit;
        this.perClient = Math.max(1, limit / CLIENT_SHARE_DIVISOR);
    }

    /** The budget as one client draws on it. */
    Share of(String client) {
        return new Share(client == null ? "" : client);
    }

    /** The bytes taken now. */
    long used() {
        return used.get();
    }

    /** The bytes {@code client} holds now. */
    long usedBy(String client) {
        return byClient.getOrDefault(client, 0L);
    }

    /** One client's draw on the budget. */
    final class Share {
        private final String client;

        private Share(String client) {
            this.client = client;
        }

        /** Takes {@code bytes}, or nothing and false when that would pass the client's share or the whole budget. */
        boolean reserve(long bytes) {
            boolean[] taken = {false};
            byClient.compute(client, (ignored, held) -> {
                long now = held == null ? 0 : held;
                if (now + bytes > perClient) {
                    return held;
                }
                taken[0] = true;
                return now + bytes;
            });
            if (!taken[0]) {
                return false;
            }
            long after = used.addAndGet(bytes);
            if (after > limit) {
                used.addAndGet(-bytes);
                giveBack(bytes);
                return false;
            }
            return true;
        }

        void release(long bytes) {
            used.addAndGet(-bytes);
            giveBack(bytes);
        }

        private void giveBack(long bytes) {
            byClient.computeIfPresent(client, (ignored, held) -> held - bytes <= 0 ? null : held - bytes);
        }
    }
}
