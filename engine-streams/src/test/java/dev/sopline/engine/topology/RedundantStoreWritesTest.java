package dev.sopline.engine.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.schemas.instance.PendingStep;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A decision writes only the derived entries it changes: every write to a logged store is also a record on its
 * changelog, so a rewrite of an unchanged entry costs the engine and the broker work for nothing.
 */
class RedundantStoreWritesTest {

    private static final String ID = "01JAAAAAAAAAAAAAAAAAAAAAAA";

    private final EngineHarness engine = new EngineHarness();

    @AfterEach
    void close() {
        engine.close();
    }

    @Test
    void shouldLeaveTheOtherBranchsPendingEntryAloneWhenOneBranchOfAParallelBlockMoves() {
        engine.register("parallel.yaml");
        engine.start(ID, "checks", Map.of("applicant", "Ada"));
        engine.submit(ID, "checks", "intake", Map.of("amount", 5000));
        engine.changelogKeys(EngineTopology.PENDING_STORE);

        engine.callback(ID, engine.instance(ID).step("kyc").orElseThrow().callbackId(), Map.of("status", "verified"));

        assertThat(engine.changelogKeys(EngineTopology.PENDING_STORE))
                .as("pending-steps changelog records of the decision that resolved kyc")
                .hasSize(2)
                .allSatisfy(key -> assertThat(key).doesNotEndWith("|score"));
        assertThat(engine.pending()).extracting(PendingStep::stepId).containsExactlyInAnyOrder("score", "kyc-review");
    }
}
