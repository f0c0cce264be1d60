package dev.sopline.engine.state;

import dev.sopline.engine.api.serde.RecordSerde;
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
        store.put(prefix + padded(seq), withinOneRecord(numbered));
        lastSeqs.put(prefix, seq);
    }

    /**
     * The decision's entries as one record the broker takes. Their details copy data the instance's budget counts once
     * (an agent's proposal, an error's message), so a decision near the budget could make a history record past the
     * broker's limit, refused at every replay of the command, and the partition would stop there. Past the limit the
     * details give way: first the proposals, then every detail, each replaced by a note saying so; the entries
     * themselves (what changed, when, by whom) always stay.
     */
    static HistoryRecord withinOneRecord(List<HistoryEntry> entries) {
        HistoryRecord record = new HistoryRecord(entries);
        if (RecordSerde.encodedSize(record) <= RecordSerde.MAX_RECORD_BYTES) {
            return record;
        }
        RecordSerde.forgetMeasured();
        HistoryRecord withoutProposals = new HistoryRecord(entries.stream().map(entry -> withDetail(entry, detailWithout(entry.detail(), "proposal"))).toList());
        if (RecordSerde.encodedSize(withoutProposals) <= RecordSerde.MAX_RECORD_BYTES) {
            return withoutProposals;
        }
        RecordSerde.forgetMeasured();
        return new HistoryRecord(entries.stream().map(entry -> withDetail(entry,
                entry.detail() == null ? null : Map.<String, Object>of(OMITTED, List.copyOf(entry.detail().keySet())))).toList());
    }

    /** The detail's key that lists what was left out of an entry for the record's size. */
    public static final String OMITTED = "omitted_for_size";

    private static Map<String, Object> detailWithout(Map<String, Object> detail, String key) {
        if (detail == null || !detail.containsKey(key)) {
            return detail;
        }
        Map<String, Object> kept = new LinkedHashMap<>(detail);
        kept.remove(key);
        kept.put(OMITTED, List.of(key));
        return kept;
    }

    private static HistoryEntry withDetail(HistoryEntry entry, Map<String, Object> detail) {
        return new HistoryEntry(entry.seq(), entry.at(), entry.kind(), entry.stepId(), entry.from(), entry.to(), entry.attempt(), entry.by(), detail);
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
