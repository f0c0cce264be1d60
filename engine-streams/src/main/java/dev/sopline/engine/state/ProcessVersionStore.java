package dev.sopline.engine.state;

import dev.sopline.engine.state.ProcessVersions.PublishedVersion;
import dev.sopline.schemas.command.InstanceKeys;
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
 * records the next time a version of that process is registered ({@link #writesFor}).
 *
 * <p>"Latest" is the highest version among the process's records found by a prefix scan, compared numerically part
 * by part: the store's key order is lexical ({@code 1.10} before {@code 1.9}), so it is never relied on.
 */
public final class ProcessVersionStore {

    private static final StringSerializer KEYS = new StringSerializer();

    private final ReadOnlyKeyValueStore<String, ProcessVersions> store;

    public ProcessVersionStore(ReadOnlyKeyValueStore<String, ProcessVersions> store) {
        this.store = store;
    }

    public static String versionKey(String workspace, String process, String version) {
        return versionPrefix(workspace, process) + version;
    }

    private static String versionPrefix(String workspace, String process) {
        return InstanceKeys.processKey(workspace, process) + "/";
    }

    /** Every version of the process, merged into one value; empty when none is published. */
    public Optional<ProcessVersions> find(String workspace, String process) {
        Map<String, PublishedVersion> versions = new LinkedHashMap<>();
        ProcessVersions legacy = store.get(InstanceKeys.processKey(workspace, process));
        if (legacy != null) {
            versions.putAll(legacy.versions());
        }
        try (KeyValueIterator<String, ProcessVersions> records = store.prefixScan(versionPrefix(workspace, process), KEYS)) {
            records.forEachRemaining(entry -> versions.putAll(entry.value.versions()));
        }
        return versions.isEmpty() ? Optional.empty()
                : Optional.of(new ProcessVersions(workspace, process, versions, ProcessVersions.ONE_VERSION_FORMAT));
    }

    /** One version, read from its own record (or the previous format's record), without the others. */
    public Optional<PublishedVersion> version(String workspace, String process, String version) {
        ProcessVersions own = store.get(versionKey(workspace, process, version));
        if (own != null) {
            return own.version(version);
        }
        return Optional.ofNullable(store.get(InstanceKeys.processKey(workspace, process))).flatMap(legacy -> legacy.version(version));
    }

    /** Every process of a workspace with its versions, by name. */
    public List<ProcessVersions> list(String workspace) {
        Map<String, Map<String, PublishedVersion>> byName = new TreeMap<>();
        try (KeyValueIterator<String, ProcessVersions> records = store.prefixScan(InstanceKeys.processKey(workspace, ""), KEYS)) {
            records.forEachRemaining(entry -> byName.computeIfAbsent(entry.value.name(), name -> new LinkedHashMap<>())
                    .putAll(entry.value.versions()));
        }
        List<ProcessVersions> found = new ArrayList<>();
        byName.forEach((name, versions) -> found.add(new ProcessVersions(workspace, name, versions, ProcessVersions.ONE_VERSION_FORMAT)));
        return found;
    }

    /**
     * The records that publish one new version: its own, and, if the process still has a record of the previous
     * format, one record per version it holds plus a tombstone for it, so the old record is split once.
     *
     * @param published a one-version record ({@link ProcessVersions#single})
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
        published.versions().forEach((version, value) -> writes.add(KeyValue.pair(versionKey(published.workspace(), published.name(), version),
                published)));
        return writes;
    }
}
