package dev.sopline.engine.state;

import dev.sopline.schemas.instance.InstanceState;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Secondary index of the instance lists: one key per state filter an instance matches, ending in its id, so that a
 * page of any filter is a few reverse range scans that stop after the page, instead of a scan of the workspace.
 * Instance ids are ULIDs, whose order is the order they were started in, so newest first is reverse key order. Keys:
 * <ul>
 *   <li>{@code <workspace>|s|<state>|<id>}: by state;</li>
 *   <li>{@code <workspace>|ps|<process>|<state>|<id>}: by process and state.</li>
 * </ul>
 * The value is the instance id; the instance itself is read from the instances store.
 *
 * <p>A list without a state is the merge of the lists of every state: an instance is in exactly one state, so the
 * merge holds each instance once, and there are six states, so a page reads at most six times its length. Format 1
 * of this index also kept {@code <workspace>|a|<id>} and {@code <workspace>|p|<process>|<id>} for those lists: two
 * more writes when an instance starts, and two more records on the changelog, for every instance ({@link #forgetFormerKeys}).
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

    /** Removes the keys format 1 of the index also kept for the instance (any state, and its process in any state). */
    void forgetFormerKeys(Instance instance) {
        store.delete(instance.workspace() + "|a|" + instance.id());
        store.delete(instance.workspace() + "|p|" + instance.process() + '|' + instance.id());
    }

    private static List<String> keysOf(Instance instance) {
        String id = instance.id();
        return List.of(prefix(instance.workspace(), null, instance.state()) + id,
                prefix(instance.workspace(), instance.process(), instance.state()) + id);
    }

    /** The keys of the instances in a state, of one process or (null) of any. */
    public static String prefix(String workspace, String process, InstanceState state) {
        if (process == null) {
            return workspace + "|s|" + state.wireName() + '|';
        }
        return workspace + "|ps|" + process + '|' + state.wireName() + '|';
    }

    /**
     * Up to {@code max} instance ids matching the filter (null: any process, any state), newest first, after
     * {@code cursor} (an id) if given. Reads only the entries it could return, at most {@code max} per state it looks
     * at (and those of process names that extend this one, which it skips).
     */
    public static List<String> newestIds(ReadOnlyKeyValueStore<String, String> index, String workspace, String process,
                                         InstanceState state, String cursor, int max) {
        if (state != null) {
            return newestIds(index, prefix(workspace, process, state), cursor, max);
        }
        List<String> ids = new ArrayList<>();
        for (InstanceState each : InstanceState.values()) {
            ids.addAll(newestIds(index, prefix(workspace, process, each), cursor, max));
        }
        ids.sort(Comparator.reverseOrder());
        return ids.size() > max ? List.copyOf(ids.subList(0, max)) : ids;
    }

    private static List<String> newestIds(ReadOnlyKeyValueStore<String, String> index, String prefix, String cursor, int max) {
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
