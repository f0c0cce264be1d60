package dev.sopline.engine.api.query;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * One page of a list and the cursor of the next, null on the last page.
 *
 * @param items this page's entries
 * @param nextCursor opaque cursor to pass for the next page
 * @param stale whether part of the page came from a standby copy because the owner of some partitions could not be
 *     reached: that part may be a little behind (left out of the JSON when false)
 */
public record Page<T>(List<T> items, String nextCursor, @JsonInclude(JsonInclude.Include.NON_DEFAULT) Boolean stale) {

    /** A page from a replica that leaves the flag out was read from the owners (the mapping refuses null for a primitive). */
    public Page {
        stale = Boolean.TRUE.equals(stale);
    }

    public Page(List<T> items, String nextCursor) {
        this(items, nextCursor, false);
    }

    /** This page, marked as read partly from a standby copy when {@code stale}. */
    public Page<T> markedStale(boolean stale) {
        return stale == this.stale ? this : new Page<>(items, nextCursor, stale);
    }

    /** The first {@code limit} of {@code candidates} in {@code order}, with the cursor of the last one if more remain. */
    public static <T> Page<T> of(Collection<T> candidates, Comparator<T> order, int limit, Function<T, String> cursorOf) {
        List<T> sorted = new ArrayList<>(candidates);
        sorted.sort(order);
        List<T> items = List.copyOf(sorted.subList(0, Math.min(limit, sorted.size())));
        String next = sorted.size() > limit ? cursorOf.apply(items.get(items.size() - 1)) : null;
        return new Page<>(items, next);
    }

    /**
     * The page across several replicas' pages of the same query: each holds its own first {@code limit} entries, or
     * fewer when its data filled {@link #MAX_BYTES}, so the overall first entries are among them up to the first
     * entry after which some page has more to give. Stale when any of them is.
     */
    public static <T> Page<T> merge(List<Page<T>> pages, Comparator<T> order, int limit, Function<T, String> cursorOf) {
        Sized<T> merged = new Sized<>(order, limit, cursorOf, item -> 0);
        boolean stale = false;
        for (Page<T> page : pages) {
            merged.addPart(page.items(), page.nextCursor() != null);
            stale |= page.stale();
        }
        return merged.page().markedStale(stale);
    }

    /**
     * Bytes of data (inputs, outputs, payloads, as JSON) one page holds, beyond its first entry, whatever its
     * {@code limit}: 500 entries of 256 KiB each would be 128 MiB to decode, hold and write for one request. A page
     * that reaches it ends early, with the cursor of its last entry.
     */
    public static final long MAX_BYTES = 1024 * 1024;

    /**
     * A page built from parts, each the matching entries of one partition (or replica) in the page's order: a part
     * may end early once its data reaches {@link #MAX_BYTES}, and then no entry after its last may be on the page,
     * since that part's next entries could come before it.
     */
    public static final class Sized<T> {

        private final Comparator<T> order;
        private final int limit;
        private final Function<T, String> cursorOf;
        private final ToLongFunction<T> sizeOf;
        private final List<T> candidates = new ArrayList<>();
        private T firstCut;

        public Sized(Comparator<T> order, int limit, Function<T, String> cursorOf, ToLongFunction<T> sizeOf) {
            this.order = order;
            this.limit = limit;
            this.cursorOf = cursorOf;
            this.sizeOf = sizeOf;
        }

        /** One part's entries in order; {@code cut} when the part has more after its last. */
        public void addPart(List<T> entries, boolean cut) {
            candidates.addAll(entries);
            if (cut && !entries.isEmpty()) {
                T last = entries.get(entries.size() - 1);
                if (firstCut == null || order.compare(last, firstCut) < 0) {
                    firstCut = last;
                }
            }
        }

        public Page<T> page() {
            candidates.sort(order);
            List<T> items = new ArrayList<>();
            long bytes = 0;
            boolean more = false;
            for (T candidate : candidates) {
                if (items.size() == limit || (!items.isEmpty() && bytes >= MAX_BYTES)) {
                    more = true;
                    break;
                }
                items.add(candidate);
                bytes += sizeOf.applyAsLong(candidate);
                if (firstCut != null && order.compare(candidate, firstCut) >= 0) {
                    more = true;
                    break;
                }
            }
            return new Page<>(List.copyOf(items), more && !items.isEmpty() ? cursorOf.apply(items.get(items.size() - 1)) : null);
        }
    }
}
