package dev.sopline.engine.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.engine.api.view.ProcessVersions;
import dev.sopline.engine.api.view.ProcessVersions.PublishedVersion;
import dev.sopline.schemas.definition.ProcessDefinition;
import dev.sopline.schemas.definition.ProcessFiles;
import dev.sopline.schemas.command.InstanceKeys;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Published versions in a store: the latest one is read from its own copy, whatever the number of versions. */
class ProcessVersionStoreTest {

    private static final String WORKSPACE = "acme";
    private static final String NAME = "review";
    private static final Instant PUBLISHED = Instant.parse("2026-01-01T00:00:00Z");

    private final KeyValueStore<String, ProcessVersions> records = InMemoryStores.open("definitions", ProcessVersions.class);
    private final ProcessVersionStore versions = new ProcessVersionStore(records);

    @AfterEach
    void close() {
        records.close();
    }

    @Test
    void shouldReadTheHighestVersionWithOneLookupHoweverManyThereAre() {
        for (String version : new String[] {"1.0", "1.9", "1.10", "1.2", "0.5"}) {
            publish(version);
        }

        ProcessVersionStore withoutScans = new ProcessVersionStore(lookupsOnly(records));

        assertThat(withoutScans.latest(WORKSPACE, NAME)).map(latest -> latest.definition().version()).contains("1.10");
        assertThat(versions.find(WORKSPACE, NAME).orElseThrow().versions())
                .as("the copy of the latest is not a version of its own").containsOnlyKeys("1.0", "1.9", "1.10", "1.2", "0.5");
        assertThat(versions.list(WORKSPACE)).singleElement().satisfies(process -> assertThat(process.versions()).hasSize(5));
    }

    @Test
    void shouldFindTheLatestOfAProcessPublishedBeforeItsCopyWasKept() {
        // Versions as an earlier engine wrote them: each under its own key, no copy of the latest.
        records.put(ProcessVersionStore.versionKey(WORKSPACE, NAME, "2.0"), record("2.0"));
        records.put(ProcessVersionStore.versionKey(WORKSPACE, NAME, "10.0"), record("10.0"));
        assertThat(versions.latest(WORKSPACE, NAME)).map(latest -> latest.definition().version()).contains("10.0");

        publish("3.0");
        assertThat(records.get(ProcessVersionStore.latestKey(WORKSPACE, NAME)))
                .as("a version below the latest writes no copy").isNull();
        assertThat(versions.latest(WORKSPACE, NAME)).map(latest -> latest.definition().version()).contains("10.0");

        publish("11.0");
        assertThat(new ProcessVersionStore(lookupsOnly(records)).latest(WORKSPACE, NAME))
                .map(latest -> latest.definition().version()).contains("11.0");
    }

    @Test
    void shouldFindTheLatestInARecordOfThePreviousFormat() {
        Map<String, PublishedVersion> all = new LinkedHashMap<>();
        all.put("1.0", published("1.0"));
        all.put("4.0", published("4.0"));
        records.put(InstanceKeys.processKey(WORKSPACE, NAME), new ProcessVersions(WORKSPACE, NAME, all, ProcessVersions.ALL_VERSIONS_FORMAT, null));
        assertThat(versions.latest(WORKSPACE, NAME)).map(latest -> latest.definition().version()).contains("4.0");

        publish("5.0");

        assertThat(new ProcessVersionStore(lookupsOnly(records)).latest(WORKSPACE, NAME))
                .map(latest -> latest.definition().version()).contains("5.0");
        assertThat(versions.find(WORKSPACE, NAME).orElseThrow().versions()).containsOnlyKeys("1.0", "4.0", "5.0");
    }

    @Test
    void shouldNameANewVersionLatestToAReaderThatSeesItBetweenAnyTwoOfItsWrites() {
        publish("1.0");

        for (KeyValue<String, ProcessVersions> write : versions.writesFor(record("2.0"))) {
            records.put(write.key, write.value);
            if (versions.find(WORKSPACE, NAME).orElseThrow().versions().containsKey("2.0")) {
                // A gateway answers a registration once it sees the version: a start right after must start it.
                assertThat(versions.latest(WORKSPACE, NAME)).map(latest -> latest.definition().version()).contains("2.0");
            }
        }
    }

    @Test
    void shouldKnowNoLatestOfAnUnknownOrOnlyRetiredProcess() {
        assertThat(versions.latest(WORKSPACE, NAME)).isEmpty();

        apply(ProcessVersions.retirement(WORKSPACE, NAME, PUBLISHED));

        assertThat(versions.latest(WORKSPACE, NAME)).isEmpty();
    }

    private void publish(String version) {
        apply(record(version));
    }

    private void apply(ProcessVersions published) {
        for (KeyValue<String, ProcessVersions> write : versions.writesFor(published)) {
            if (write.value == null) {
                records.delete(write.key);
            } else {
                records.put(write.key, write.value);
            }
        }
    }

    private static ProcessVersions record(String version) {
        return ProcessVersions.single(WORKSPACE, NAME, version, published(version));
    }

    private static PublishedVersion published(String version) {
        String yaml = """
                engine: "0.1"
                process:
                  name: %s
                  version: "%s"
                  steps:
                    - id: check
                      type: form
                      outputs:
                        - name: ok
                          type: boolean
                """.formatted(NAME, version);
        ProcessDefinition definition = ((ProcessFiles.Loaded) ProcessFiles.load(yaml.getBytes(StandardCharsets.UTF_8))).file().process();
        return new PublishedVersion(definition, yaml, PUBLISHED);
    }

    /** The store, with every read that walks keys (a scan, a range, all) refused: only lookups of one key are allowed. */
    @SuppressWarnings("unchecked")
    private static ReadOnlyKeyValueStore<String, ProcessVersions> lookupsOnly(ReadOnlyKeyValueStore<String, ProcessVersions> store) {
        return (ReadOnlyKeyValueStore<String, ProcessVersions>) Proxy.newProxyInstance(ProcessVersionStoreTest.class.getClassLoader(),
                new Class<?>[] {ReadOnlyKeyValueStore.class}, (proxy, method, arguments) -> {
                    if (!method.getName().equals("get")) {
                        throw new AssertionError("Expected one lookup, but the store was asked for " + method.getName());
                    }
                    return method.invoke(store, arguments);
                });
    }
}
