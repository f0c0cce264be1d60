package dev.sopline.engine.state;

import dev.sopline.schemas.instance.InstanceState;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Secondary index of the instance lists: one key per filter an instance matches, ending in its id, so that a page of
 * any filter is one reverse range scan that stops after the page, instead of a scan of the workspace. Instance ids
 * are ULIDs, whose order is the order they were started in, so newest first is reverse key order. Keys:
 * <ul>
 *   <li>{@code <workspace>|a|<id>}: every instance;</li>
 *   <li>{@code <workspace>|s|<state>|<id>}: by state;</li>
 *   <li>{@code <workspace>|p|<process>|<id>}: by process;</li>
 *   <li>{@code <workspace>|ps|<process>|<state>|<id>}: by process and state.</li>
 * </ul>
 * The value is the instance id; the instance itself is read from the instances store.
 */
public final class InstanceListIndex {

    private final KeyValueStore<String, String> store;

    public InstanceListIndex(KeyValueStore<String, String> store) {
        this.store = store;
    }

    /** Brings the index in line with one instance's change; either side may be null (started, removed). */
    public void update(Instance before, Instance after) {
        List<String> old = before == null ? List.of() : keysOf(before);
        List<String> current = after == null ? List.of() : keysOf(after);
        for (String key : old) {
            if (!current.contains(key)) {
                store.put(key, null);
            }
        }
        for (String key : current) {
            if (!old.contains(key)) {
                store.put(key, after.id());
            }
        }
    }

    private static List<String> keysOf(Instance instance) {
        String id = instance.id();
        return List.of(prefix(instance.workspace(), null, null) + id,
                prefix(instance.workspace(), null, instance.state()) + id,
                prefix(instance.workspace(), instance.process(), null) + id,
                prefix(instance.workspace(), instance.process(), instance.state()) + id);
    }

    /** The keys of the instances that match a filter (null: any process, any state). */
    public static String prefix(String workspace, String process, InstanceState state) {
        if (process == null && state == null) {
            return workspace + "|a|";
        }
        if (process == null) {
            return workspace + "|s|" + state.wireName() + '|';
        }
        if (state == null) {
            return workspace + "|p|" + process + '|';
        }
        return workspace + "|ps|" + process + '|' + state.wireName() + '|';
    }

    /**
     * Up to {@code max} instance ids matching the filter, newest first, after {@code cursor} (an id) if given. Reads
     * only the entries it returns (and those of process names that extend this one, which it skips).
     */
    public static List<String> newestIds(ReadOnlyKeyValueStore<String, String> index, String workspace, String process,
                                         InstanceState state, String cursor, int max) {
        String prefix = prefix(workspace, process, state);
        List<String> ids = new ArrayList<>();
        // The prefix followed by '~' sorts after every id: ULIDs are Crockford base32, digits and capitals.
        String upper = prefix + (cursor == null ? "~" : cursor);
        try (KeyValueIterator<String, String> iterator = index.reverseRange(prefix, upper)) {
            while (iterator.hasNext() && ids.size() < max) {
                String key = iterator.next().key;
                String id = key.substring(prefix.length());
                // A process whose name is this one's plus "|..." shares the prefix; its keys hold a '|' after it.
                if (id.indexOf('|') < 0 && !id.equals(cursor)) {
                    ids.add(id);
                }
            }
        }
        return ids;
    }
}
