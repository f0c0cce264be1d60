package dev.sopline.engine.processor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.engine.api.view.ProcessVersions;
import dev.sopline.engine.api.view.ProcessVersions.PublishedVersion;
import dev.sopline.engine.handler.DefinitionLookup;
import dev.sopline.schemas.definition.ProcessDefinition;
import dev.sopline.schemas.definition.ProcessFiles;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Versions read once are kept parsed, and what is kept stays within its weight however large the versions are. */
class CachedDefinitionsTest {

    private final Map<String, Integer> reads = new HashMap<>();

    @Test
    void shouldReadAVersionFromTheStoreOnce() {
        CachedDefinitions definitions = new CachedDefinitions(NO_LOOKUPS, this::read);

        for (int start = 0; start < 50; start++) {
            assertThat(definitions.version("acme", "review", "1.0")).map(ProcessDefinition::version).contains("1.0");
        }
        assertThat(definitions.version("acme", "review", "9.9")).isEmpty();

        assertThat(reads).containsEntry("1.0", 1);
    }

    @Test
    void shouldKeepNoMoreThanItsWeightOfLargeVersions() {
        long maxWeight = 1024 * 1024;
        CachedDefinitions definitions = new CachedDefinitions(NO_LOOKUPS, this::read, maxWeight);

        for (int version = 0; version < 200; version++) {
            assertThat(definitions.version("acme", "review", "2." + version)).isPresent();
            assertThat(definitions.weightKept()).isLessThanOrEqualTo(maxWeight);
        }
        // A 100 KiB source weighs 200 KiB and more: at most five fit, so of the first ten some were let go and are read again.
        assertThat(definitions.weightKept()).isGreaterThan(maxWeight / 2);
        for (int version = 0; version < 10; version++) {
            definitions.version("acme", "review", "2." + version);
        }
        assertThat(reads.values().stream().mapToInt(Integer::intValue).sum()).isGreaterThanOrEqualTo(200 + 5);
    }

    private Optional<PublishedVersion> read(String workspace, String process, String version) {
        reads.merge(version, 1, Integer::sum);
        if (version.equals("9.9")) {
            return Optional.empty();
        }
        String yaml = """
                engine: "0.1"
                process:
                  name: %s
                  version: "%s"
                  description: "%s"
                  steps:
                    - id: check
                      type: form
                      outputs:
                        - name: ok
                          type: boolean
                """.formatted(process, version, version.startsWith("2.") ? "x".repeat(100 * 1024) : "small");
        ProcessDefinition definition = ((ProcessFiles.Loaded) ProcessFiles.load(yaml.getBytes(StandardCharsets.UTF_8))).file().process();
        return Optional.of(new PublishedVersion(definition, yaml, Instant.parse("2026-01-01T00:00:00Z")));
    }

    /** The lookups a version read does not need. */
    private static final DefinitionLookup NO_LOOKUPS = new DefinitionLookup() {
        @Override
        public Optional<ProcessVersions> find(String workspace, String process) {
            throw new AssertionError("not expected");
        }

        @Override
        public Optional<ProcessDefinition> latest(String workspace, String process) {
            throw new AssertionError("not expected");
        }

        @Override
        public boolean isRetired(String workspace, String process) {
            throw new AssertionError("not expected");
        }

        @Override
        public Optional<ProcessDefinition> version(String workspace, String process, String version) {
            throw new AssertionError("not expected");
        }
    };
}
