package dev.sopline.engine.api.query;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * A page holds at most {@link Page#MAX_BYTES} of data beyond its first entry, and a part that ended early for its
 * bytes ends the page by its last entry: the entries after it in that part were not read, and could come first.
 */
class SizedPageTest {

    /** An entry: its place in the order, and the bytes of data it carries. */
    record Entry(int position, long bytes) {}

    private static final Comparator<Entry> ORDER = Comparator.comparingInt(Entry::position);
    private static final long QUARTER = Page.MAX_BYTES / 4;

    private static Page.Sized<Entry> sized(int limit) {
        return new Page.Sized<>(ORDER, limit, entry -> "after-" + entry.position(), Entry::bytes);
    }

    @Test
    void shouldEndAPageOnceItsDataReachesTheLimitWithTheCursorOfItsLastEntry() {
        Page.Sized<Entry> page = sized(500);
        page.addPart(IntStream.range(0, 10).mapToObj(position -> new Entry(position, QUARTER)).toList(), false);

        Page<Entry> first = page.page();

        assertThat(first.items()).extracting(Entry::position).containsExactly(0, 1, 2, 3);
        assertThat(first.nextCursor()).isEqualTo("after-3");
    }

    @Test
    void shouldHoldOneEntryLargerThanTheLimitAlone() {
        Page.Sized<Entry> page = sized(500);
        page.addPart(List.of(new Entry(0, Page.MAX_BYTES * 3), new Entry(1, 10)), false);

        assertThat(page.page().items()).extracting(Entry::position).containsExactly(0);
    }

    @Test
    void shouldEndThePageByTheLastEntryOfAPartThatWasCut() {
        Page.Sized<Entry> page = sized(500);
        page.addPart(List.of(new Entry(0, 1), new Entry(4, 1)), true); // entries 5, 6, ... of this part not read
        page.addPart(List.of(new Entry(1, 1), new Entry(2, 1), new Entry(6, 1), new Entry(9, 1)), false);

        Page<Entry> first = page.page();

        assertThat(first.items()).extracting(Entry::position).containsExactly(0, 1, 2, 4);
        assertThat(first.nextCursor()).isEqualTo("after-4");
    }

    @Test
    void shouldGiveNoCursorWhenNothingIsLeft() {
        Page.Sized<Entry> page = sized(5);
        page.addPart(List.of(new Entry(0, 1), new Entry(1, 1)), false);
        page.addPart(List.of(new Entry(2, 1)), false);

        Page<Entry> only = page.page();

        assertThat(only.items()).hasSize(3);
        assertThat(only.nextCursor()).isNull();
    }

    @Test
    void shouldMergeReplicasPagesUpToTheFirstThatEndedEarly() {
        Page<Entry> shortOne = new Page<>(List.of(new Entry(0, QUARTER * 4), new Entry(3, 1)), "after-3");
        Page<Entry> full = new Page<>(List.of(new Entry(1, 1), new Entry(2, 1), new Entry(5, 1)), null);

        Page<Entry> merged = Page.merge(List.of(shortOne, full), ORDER, 500, entry -> "after-" + entry.position());

        assertThat(merged.items()).extracting(Entry::position).containsExactly(0, 1, 2, 3);
        assertThat(merged.nextCursor()).isEqualTo("after-3");
    }

    @Test
    void shouldReadEveryEntryOnceAcrossPages() {
        // Two parts, one of large entries, paged through as a reader would, each page built afresh after its cursor.
        List<Entry> large = IntStream.range(0, 40).filter(position -> position % 2 == 0).mapToObj(position -> new Entry(position, QUARTER)).toList();
        List<Entry> small = IntStream.range(0, 40).filter(position -> position % 2 == 1).mapToObj(position -> new Entry(position, 100)).toList();
        List<Integer> seen = new ArrayList<>();
        int after = -1;
        for (int pages = 0; pages < 100; pages++) {
            Page.Sized<Entry> page = sized(7);
            page.addPart(readPart(large, after, 8), cut(large, after, 8));
            page.addPart(readPart(small, after, 8), cut(small, after, 8));
            Page<Entry> next = page.page();
            next.items().forEach(entry -> seen.add(entry.position()));
            if (next.nextCursor() == null) {
                break;
            }
            after = next.items().get(next.items().size() - 1).position();
        }

        assertThat(seen).containsExactlyElementsOf(IntStream.range(0, 40).boxed().toList());
    }

    /** A part as a partition's scan reads it: up to {@code max} entries after the cursor, stopping once its data reaches the limit. */
    private static List<Entry> readPart(List<Entry> all, int after, int max) {
        List<Entry> part = new ArrayList<>();
        long bytes = 0;
        for (Entry entry : all) {
            if (entry.position() <= after) {
                continue;
            }
            if (part.size() == max || bytes >= Page.MAX_BYTES) {
                break;
            }
            part.add(entry);
            bytes += entry.bytes();
        }
        return part;
    }

    private static boolean cut(List<Entry> all, int after, int max) {
        List<Entry> part = readPart(all, after, max);
        long bytes = part.stream().mapToLong(Entry::bytes).sum();
        return bytes >= Page.MAX_BYTES && all.stream().anyMatch(entry -> entry.position() > part.get(part.size() - 1).position());
    }
}
