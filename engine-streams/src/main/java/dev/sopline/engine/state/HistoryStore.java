package dev.sopline.engine.state;

import dev.sopline.schemas.command.InstanceKeys;
import dev.sopline.schemas.instance.HistoryEntry;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Every instance's history, one record per decision under {@code <workspace>/<instance id>/<seq of its last entry>},
 * holding that decision's entries ({@link HistoryRecord}): appending costs one small write per decision whatever the
 * history's length, and a page is one range scan. The sequence is zero-padded so the store's byte order is the
 * history's order. Keyed by the last entry, not the first, so that the next number is read from the last key alone,
 * and the first record a page needs is the first key at or after the page's first number. Records of the previous
 * version, one entry each, are keyed the same way (their only entry is their last), so both read as one history.
 *
 * <p>An instance's entries share the prefix {@link #prefix}: removing a finished instance later (retention) removes
 * its history with a range delete over that prefix ({@link #deleteAll}).
 */
public final class HistoryStore {

    /** Digits of the zero-padded sequence in a key. */
    private static final int SEQ_DIGITS = 12;
    /** Sorts after every digit, so {@code prefix + END} bounds an instance's range. */
    private static final String END = "~";

    /** Instances whose last number is remembered; see {@link #lastSeq}. */
    private static final int REMEMBERED = 1_024;

    private final KeyValueStore<String, HistoryRecord> store;
    /**
     * The last number appended per instance prefix, so that the next append need not look it up in the store. Sound
     * for the same reason as {@link DecodedValues}: every write goes through here, and this lives with the processor,
     * which is initialised again whenever the task's stores are reset.
     */
    private final Map<String, Long> lastSeqs = new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Long> eldest) {
            return size() > REMEMBERED;
        }
    };

    public HistoryStore(KeyValueStore<String, HistoryRecord> store) {
        this.store = store;
    }

    /** The key prefix every entry of the instance starts with. */
    public static String prefix(String workspace, String instanceId) {
        return InstanceKeys.key(workspace, instanceId) + "/";
    }

    /** Appends one decision's entries after the instance's last one, numbering them on, as one record. */
    public void append(String workspace, String instanceId, List<HistoryEntry> entries) {
        if (entries.isEmpty()) {
            return;
        }
        String prefix = prefix(workspace, instanceId);
        Long remembered = lastSeqs.get(prefix);
        long seq = remembered != null ? remembered : lastSeq(prefix);
        List<HistoryEntry> numbered = new ArrayList<>(entries.size());
        for (HistoryEntry entry : entries) {
            numbered.add(entry.numbered(++seq));
        }
        store.put(prefix + padded(seq), new HistoryRecord(numbered));
        lastSeqs.put(prefix, seq);
    }

    /**
     * The last entry's number, read from its key: {@code peekNextKey} leaves the value undecoded, and this runs for every
     * decision on the stream thread, where decoding the entry showed in profiles.
     */
    private long lastSeq(String prefix) {
        try (KeyValueIterator<String, HistoryRecord> last = store.reverseRange(prefix, prefix + END)) {
            return last.hasNext() ? Long.parseLong(last.peekNextKey().substring(prefix.length())) : 0;
        }
    }

    // Concatenation, not String.format: a key is built for every entry on the stream thread, where format's parsing of
    // its pattern showed in profiles.
    private static String padded(long seq) {
        String digits = Long.toString(seq);
        return "0".repeat(Math.max(0, SEQ_DIGITS - digits.length())) + digits;
    }

    /** Removes the instance's whole history, for when the instance itself is removed. */
    public void deleteAll(String workspace, String instanceId) {
        String prefix = prefix(workspace, instanceId);
        lastSeqs.remove(prefix);
        List<String> keys = new ArrayList<>();
        try (KeyValueIterator<String, HistoryRecord> all = store.range(prefix, prefix + END)) {
            all.forEachRemaining(entry -> keys.add(entry.key));
        }
        keys.forEach(store::delete);
    }

    /**
     * Up to {@code limit} entries after {@code afterSeq} (0 for the first page), oldest first, plus one more if there is
     * one, so the caller can tell whether another page follows.
     */
    public static List<HistoryEntry> page(ReadOnlyKeyValueStore<String, HistoryRecord> store, String workspace, String instanceId,
                                          long afterSeq, int limit) {
        String prefix = prefix(workspace, instanceId);
        List<HistoryEntry> entries = new ArrayList<>();
        // The first record whose last entry is after the cursor holds the page's first entry; it may start before it.
        try (KeyValueIterator<String, HistoryRecord> range = store.range(prefix + padded(afterSeq + 1), prefix + END)) {
            while (range.hasNext() && entries.size() <= limit) {
                for (HistoryEntry entry : range.next().value.entries()) {
                    if (entry.seq() > afterSeq && entries.size() <= limit) {
                        entries.add(entry);
                    }
                }
            }
        }
        return entries;
    }
}
