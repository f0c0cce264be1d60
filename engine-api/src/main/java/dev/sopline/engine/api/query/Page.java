package dev.sopline.engine.api.query;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;

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
     * The page across several replicas' pages of the same query: each holds its own first {@code limit} entries, so
     * the overall first {@code limit} are among them. Stale when any of them is.
     */
    public static <T> Page<T> merge(List<Page<T>> pages, Comparator<T> order, int limit, Function<T, String> cursorOf) {
        List<T> all = new ArrayList<>();
        boolean more = false;
        boolean stale = false;
        for (Page<T> page : pages) {
            all.addAll(page.items());
            more |= page.nextCursor() != null;
            stale |= page.stale();
        }
        Page<T> merged = of(all, order, limit, cursorOf);
        if (merged.nextCursor() == null && more && !merged.items().isEmpty()) {
            merged = new Page<>(merged.items(), cursorOf.apply(merged.items().get(merged.items().size() - 1)));
        }
        return merged.markedStale(stale);
    }
}
