package dev.sopline.engine.state;

import dev.sopline.schemas.definition.ProcessDefinition;
import java.time.Instant;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Every published version of one process in one workspace, stored under {@code <workspace>/<name>}.
 *
 * @param versions by version string
 */
public record ProcessVersions(String workspace, String name, Map<String, PublishedVersion> versions) {

    /**
     * One published version.
     *
     * @param definition the validated definition
     * @param source the YAML text it was registered from
     * @param publishedAt when it was registered
     */
    public record PublishedVersion(ProcessDefinition definition, String source, Instant publishedAt) {}

    public static ProcessVersions empty(String workspace, String name) {
        return new ProcessVersions(workspace, name, Map.of());
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
        return new ProcessVersions(workspace, name, copy);
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
