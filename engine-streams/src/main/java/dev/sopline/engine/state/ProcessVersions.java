package dev.sopline.engine.state;

import dev.sopline.schemas.definition.ProcessDefinition;
import java.time.Instant;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Published versions of one process in one workspace.
 *
 * <p>Stored records come in two formats ({@link ProcessVersionStore} reads both): format 1, written before each
 * version had its own key, holds every version under {@code <workspace>/<name>}; format 2 holds exactly one version
 * under {@code <workspace>/<name>/<version>}, so no number of versions makes a record too large. Queries see the
 * versions of a process merged into one value.
 *
 * @param versions by version string
 * @param format the stored record's format; 1 when absent (records written before formats were numbered)
 */
public record ProcessVersions(String workspace, String name, Map<String, PublishedVersion> versions, Integer format) {

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
        return new ProcessVersions(workspace, name, Map.of(), ONE_VERSION_FORMAT);
    }

    /** The record of one version, as stored under its own key. */
    public static ProcessVersions single(String workspace, String name, String version, PublishedVersion published) {
        return new ProcessVersions(workspace, name, Map.of(version, published), ONE_VERSION_FORMAT);
    }

    public Optional<PublishedVersion> version(String version) {
        return Optional.ofNullable(versions.get(version));
    }

    /** The highest version, compared numerically part by part ({@code 1.10} after {@code 1.9}). */
    public Optional<PublishedVersion> latest() {
        return versions.keySet().stream().max(VERSION_ORDER).map(versions::get);
    }

    public ProcessVersions with(String version, PublishedVersion published) {
        Map<String, PublishedVersion> copy = new LinkedHashMap<>(versions);
        copy.put(version, published);
        return new ProcessVersions(workspace, name, copy, format);
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
        return 0;
    };

    private static long parse(String part) {
        try {
            return Long.parseLong(part);
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
