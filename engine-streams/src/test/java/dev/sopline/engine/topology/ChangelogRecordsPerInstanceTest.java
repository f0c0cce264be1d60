package dev.sopline.engine.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * How many records the history and the list index put on their changelogs over one instance's life: each is a store
 * write, a record the producer sends and one the broker appends, for every instance the engine runs.
 */
class ChangelogRecordsPerInstanceTest {

    private static final String ID = "01JCAAAAAAAAAAAAAAAAAAAAAA";
    /** Three automated steps in a row, as in the benchmark's engine case. */
    private static final String THREE_STEPS = """
            engine: "0.1"
            process:
              name: three-steps
              version: "1.0"
              steps:
                - id: a
                  type: automated
                  run: team.a
                  outputs:
                    - name: out
                - id: b
                  type: automated
                  run: team.b
                  outputs:
                    - name: out
                - id: c
                  type: automated
                  run: team.c
                  outputs:
                    - name: out
            """;

    private final EngineHarness engine = new EngineHarness();

    @AfterEach
    void close() {
        engine.close();
    }

    private void runThreeStepInstance() {
        engine.register("three-steps", THREE_STEPS.getBytes(StandardCharsets.UTF_8));
        engine.changelogKeys(EngineTopology.HISTORY_STORE);
        engine.changelogKeys(EngineTopology.INSTANCE_INDEX_STORE);
        engine.start(ID, "three-steps", Map.of());
        for (String step : new String[] {"a", "b", "c"}) {
            engine.workerResult(ID, step, 1, Map.of("out", step));
        }
        assertThat(engine.instance(ID).state().wireName()).isEqualTo("completed");
    }

    @Test
    void shouldWriteOneHistoryRecordPerDecision() {
        runThreeStepInstance();

        // start, and each step's result: eight entries (created, then each step active and completed, then completed)
        assertThat(engine.changelogKeys(EngineTopology.HISTORY_STORE)).as("history changelog records of one three-step instance")
                .hasSize(4);
    }

    @Test
    void shouldWriteTheListIndexKeysOfTheInstancesStateAndProcessAndState() {
        runThreeStepInstance();

        // started: running, and running of three-steps; completed: those two deleted, completed and completed of three-steps
        assertThat(engine.changelogKeys(EngineTopology.INSTANCE_INDEX_STORE)).as("list-index changelog records of one three-step instance")
                .hasSize(6);
    }
}
