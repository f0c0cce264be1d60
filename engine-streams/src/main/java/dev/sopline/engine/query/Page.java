package dev.sopline.engine.query;

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
 */
public record Page<T>(List<T> items, String nextCursor) {

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
     * the overall first {@code limit} are among them.
     */
    public static <T> Page<T> merge(List<Page<T>> pages, Comparator<T> order, int limit, Function<T, String> cursorOf) {
        List<T> all = new ArrayList<>();
        boolean more = false;
        for (Page<T> page : pages) {
            all.addAll(page.items());
            more |= page.nextCursor() != null;
        }
        Page<T> merged = of(all, order, limit, cursorOf);
        if (merged.nextCursor() == null && more && !merged.items().isEmpty()) {
            return new Page<>(merged.items(), cursorOf.apply(merged.items().get(merged.items().size() - 1)));
        }
        return merged;
    }
}
