package dev.sopline.engine.state;

import dev.sopline.engine.api.view.ProcessVersions.PublishedVersion;
import dev.sopline.engine.api.view.ProcessVersions;
import dev.sopline.schemas.command.InstanceKeys;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Published process versions in a store (the engine's own, or the global definitions store): the only code that
 * knows their keys. Each version is its own record under {@code <workspace>/<name>/<version>}; a record of the
 * previous format, every version under {@code <workspace>/<name>}, is still read, and is split into per-version
 * records the next time a version of that process is registered ({@link #writesFor}). A retired process has one more
 * record, under {@code <workspace>/<name>/retired} (no version is named that: versions are numbers), merged into what
 * is read as {@link ProcessVersions#retiredAt}.
 *
 * <p>"Latest" is the highest version, compared numerically part by part: the store's key order is lexical
 * ({@code 1.10} before {@code 1.9}), so it is never relied on. Every start asks for it, so it is kept under a key of its
 * own, {@code <workspace>/<name>/latest}, a copy of the latest version's record written beside the version that
 * becomes latest: one read, however many versions the process has. A process whose versions were all registered
 * before that copy existed has none until its next new latest version; its latest is then found by a scan of its
 * records ({@link #latest}).
 */
public final class ProcessVersionStore {

    private static final StringSerializer KEYS = new StringSerializer();
    private static final String RETIRED = "retired";
    private static final String LATEST = "latest";

    private final ReadOnlyKeyValueStore<String, ProcessVersions> store;

    public ProcessVersionStore(ReadOnlyKeyValueStore<String, ProcessVersions> store) {
        this.store = store;
    }

    public static String versionKey(String workspace, String process, String version) {
        return versionPrefix(workspace, process) + version;
    }

    public static String retiredKey(String workspace, String process) {
        return versionPrefix(workspace, process) + RETIRED;
    }

    public static String latestKey(String workspace, String process) {
        return versionPrefix(workspace, process) + LATEST;
    }

    private static String versionPrefix(String workspace, String process) {
        return InstanceKeys.processKey(workspace, process) + "/";
    }

    /**
     * Every version of the process, merged into one value with its retirement, if any; empty when none is published
     * (a process retired before any version arrived reads as retired once one does).
     */
    public Optional<ProcessVersions> find(String workspace, String process) {
        Merged merged = new Merged();
        ProcessVersions legacy = store.get(InstanceKeys.processKey(workspace, process));
        if (legacy != null) {
            merged.add(legacy);
        }
        try (KeyValueIterator<String, ProcessVersions> records = store.prefixScan(versionPrefix(workspace, process), KEYS)) {
            records.forEachRemaining(entry -> merged.add(entry.value));
        }
        return merged.versions.isEmpty() ? Optional.empty() : Optional.of(merged.as(workspace, process));
    }

    /** The records of one process read so far: their versions, and when it was retired, if one of them says so. */
    private static final class Merged {
        private final Map<String, PublishedVersion> versions = new LinkedHashMap<>();
        private Instant retiredAt;

        void add(ProcessVersions record) {
            versions.putAll(record.versions());
            retiredAt = retiredAt == null ? record.retiredAt() : retiredAt;
        }

        ProcessVersions as(String workspace, String process) {
            return new ProcessVersions(workspace, process, versions, ProcessVersions.ONE_VERSION_FORMAT, retiredAt);
        }
    }

    /** The latest version: one read of its copy, or, for a process that has no copy yet, a scan of its versions. */
    public Optional<PublishedVersion> latest(String workspace, String process) {
        ProcessVersions copy = store.get(latestKey(workspace, process));
        if (copy != null) {
            return copy.latest();
        }
        return find(workspace, process).flatMap(ProcessVersions::latest);
    }

    /** Whether the process is retired, from its one retirement record: a single read, not a scan of its versions. */
    public boolean isRetired(String workspace, String process) {
        ProcessVersions mark = store.get(retiredKey(workspace, process));
        return mark != null && mark.retired();
    }

    /** One version, read from its own record (or the previous format's record), without the others. */
    public Optional<PublishedVersion> version(String workspace, String process, String version) {
        ProcessVersions own = store.get(versionKey(workspace, process, version));
        if (own != null) {
            return own.version(version);
        }
        return Optional.ofNullable(store.get(InstanceKeys.processKey(workspace, process))).flatMap(legacy -> legacy.version(version));
    }

    /** Every process of a workspace with its versions (and retirement), by name; one with no version is left out. */
    public List<ProcessVersions> list(String workspace) {
        Map<String, Merged> byName = new TreeMap<>();
        try (KeyValueIterator<String, ProcessVersions> records = store.prefixScan(InstanceKeys.processKey(workspace, ""), KEYS)) {
            records.forEachRemaining(entry -> byName.computeIfAbsent(entry.value.name(), name -> new Merged()).add(entry.value));
        }
        List<ProcessVersions> found = new ArrayList<>();
        byName.forEach((name, merged) -> {
            if (!merged.versions.isEmpty()) {
                found.add(merged.as(workspace, name));
            }
        });
        return found;
    }

    /**
     * The records that publish one new version, or a retirement: its own; a copy under the latest key when the new
     * version is higher than every one published; and, if the process still has a record of the previous format, one
     * record per version it holds plus a tombstone for it, so the old record is split once.
     *
     * @param published a one-version record ({@link ProcessVersions#single}) or a retirement ({@link ProcessVersions#retirement})
     */
    public List<KeyValue<String, ProcessVersions>> writesFor(ProcessVersions published) {
        List<KeyValue<String, ProcessVersions>> writes = new ArrayList<>();
        String legacyKey = InstanceKeys.processKey(published.workspace(), published.name());
        ProcessVersions legacy = store.get(legacyKey);
        if (legacy != null) {
            legacy.versions().forEach((version, old) -> writes.add(KeyValue.pair(versionKey(published.workspace(), published.name(), version),
                    ProcessVersions.single(published.workspace(), published.name(), version, old))));
            writes.add(KeyValue.pair(legacyKey, null));
        }
        Optional<String> latestBefore = latest(published.workspace(), published.name()).map(before -> before.definition().version());
        published.versions().forEach((version, value) -> {
            // The copy first: a reader that sees the new version (a gateway confirming a registration) sees it latest too.
            if (latestBefore.isEmpty() || ProcessVersions.VERSION_ORDER.compare(version, latestBefore.get()) > 0) {
                writes.add(KeyValue.pair(latestKey(published.workspace(), published.name()), published));
            }
            writes.add(KeyValue.pair(versionKey(published.workspace(), published.name(), version), published));
        });
        if (published.retired()) {
            writes.add(KeyValue.pair(retiredKey(published.workspace(), published.name()), published));
        }
        return writes;
    }
}
