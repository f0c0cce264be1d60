package dev.sopline.engine.api.view;

import dev.sopline.schemas.definition.ProcessDefinition;
import java.time.Instant;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Published versions of one process in one workspace.
 *
 * <p>Stored records come in two formats (the engine's {@code ProcessVersionStore} reads both): format 1, written before each
 * version had its own key, holds every version under {@code <workspace>/<name>}; format 2 holds exactly one version
 * under {@code <workspace>/<name>/<version>}, so no number of versions makes a record too large. Queries see the
 * versions of a process merged into one value.
 *
 * <p>A retired process (its workspace was deleted) has one more record of its own, holding no version and the time it
 * was retired; queries see it as the merged value's {@code retiredAt}.
 *
 * @param versions by version string
 * @param format the stored record's format; 1 when absent (records written before formats were numbered)
 * @param retiredAt when the process was retired; absent (null) while it is not, and in every record written before
 */
public record ProcessVersions(String workspace, String name, Map<String, PublishedVersion> versions, Integer format, Instant retiredAt) {

    public static final int ALL_VERSIONS_FORMAT = 1;
    public static final int ONE_VERSION_FORMAT = 2;

    public ProcessVersions {
        format = format == null ? ALL_VERSIONS_FORMAT : format;
    }

    /**
     * One published version.
     *
     * @param definition the validated definition
     * @param source the YAML text it was registered from
     * @param publishedAt when it was registered
     */
    public record PublishedVersion(ProcessDefinition definition, String source, Instant publishedAt) {}

    public static ProcessVersions empty(String workspace, String name) {
        return new ProcessVersions(workspace, name, Map.of(), ONE_VERSION_FORMAT, null);
    }

    /** The record that marks a process retired, stored under a key of its own. */
    public static ProcessVersions retirement(String workspace, String name, Instant retiredAt) {
        return new ProcessVersions(workspace, name, Map.of(), ONE_VERSION_FORMAT, retiredAt);
    }

    /** The record of one version, as stored under its own key. */
    public static ProcessVersions single(String workspace, String name, String version, PublishedVersion published) {
        return new ProcessVersions(workspace, name, Map.of(version, published), ONE_VERSION_FORMAT, null);
    }

    /** Whether the process is retired: its schedule no longer fires and no start of it is accepted. */
    public boolean retired() {
        return retiredAt != null;
    }

    public Optional<PublishedVersion> version(String version) {
        return Optional.ofNullable(versions.get(version));
    }

    /** The highest version, compared numerically part by part ({@code 1.10} after {@code 1.9}; see {@link #VERSION_ORDER}). */
    public Optional<PublishedVersion> latest() {
        return versions.keySet().stream().max(VERSION_ORDER).map(versions::get);
    }

    public ProcessVersions with(String version, PublishedVersion published) {
        Map<String, PublishedVersion> copy = new LinkedHashMap<>(versions);
        copy.put(version, published);
        return new ProcessVersions(workspace, name, copy, format, retiredAt);
    }

    public static final Comparator<String> VERSION_ORDER = (left, right) -> {
        String[] a = left.split("\\.");
        String[] b = right.split("\\.");
        for (int i = 0; i < Math.max(a.length, b.length); i++) {
            long x = i < a.length ? parse(a[i]) : 0;
            long y = i < b.length ? parse(b[i]) : 0;
            if (x != y) {
                return Long.compare(x, y);
            }
        }
        // Equal as numbers ("1.0" and "1.0.0", "01.0" and "1.0"): still one order, the same wherever the versions are
        // listed from, so that every replica and every read takes the same one as the latest.
        return left.compareTo(right);
    };

    /** Whether two version strings name the same number ({@code 1.0}, {@code 1.0.0}, {@code 01.0}). */
    public static boolean sameNumber(String left, String right) {
        String[] a = left.split("\\.");
        String[] b = right.split("\\.");
        for (int i = 0; i < Math.max(a.length, b.length); i++) {
            if ((i < a.length ? parse(a[i]) : 0) != (i < b.length ? parse(b[i]) : 0)) {
                return false;
            }
        }
        return true;
    }

    private static long parse(String part) {
        try {
            return Long.parseLong(part);
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
