package dev.sopline.engine.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.engine.api.serde.RecordSerde;
import dev.sopline.schemas.command.Actor;
import dev.sopline.schemas.instance.HistoryEntry;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A decision's history entries always make one record the broker takes: past its limit, the details give way. */
class HistoryStoreTest {

    private static final Instant AT = Instant.parse("2026-01-01T00:00:00Z");
    /** About 440 KB as the engine writes it: three of them pass the broker's limit for one record. */
    private static final Map<String, Object> PROPOSAL = Map.of("scores", Collections.nCopies(40_000, 0.1));

    @Test
    void shouldKeepEntriesThatFitAsTheyAre() {
        List<HistoryEntry> entries = List.of(entry("classify", Map.of("escalated", true, "proposal", PROPOSAL)));

        HistoryRecord record = HistoryStore.withinOneRecord(entries);

        assertThat(record.entries()).isEqualTo(entries);
    }

    @Test
    void shouldLeaveTheProposalsOutFirstAndSaySo() {
        List<HistoryEntry> entries = List.of(
                entry("a", Map.of("escalated", true, "proposal", PROPOSAL)),
                entry("b", Map.of("escalated", true, "proposal", PROPOSAL)),
                entry("c", Map.of("escalated", true, "proposal", PROPOSAL)));

        HistoryRecord record = HistoryStore.withinOneRecord(entries);

        assertThat(RecordSerde.write(record).length).isLessThanOrEqualTo(RecordSerde.MAX_RECORD_BYTES);
        assertThat(record.entries()).extracting(HistoryEntry::stepId).containsExactly("a", "b", "c");
        assertThat(record.entries()).allSatisfy(entry -> {
            assertThat(entry.detail()).containsEntry("escalated", true).doesNotContainKey("proposal");
            assertThat(entry.detail()).containsEntry(HistoryStore.OMITTED, List.of("proposal"));
        });
    }

    @Test
    void shouldLeaveEveryDetailOutWhenTheProposalsAloneAreNotEnough() {
        Map<String, Object> error = Map.of("code", "worker_error", "message", "x".repeat(400_000));
        List<HistoryEntry> entries = List.of(entry("a", Map.of("error", error)), entry("b", Map.of("error", error)),
                entry("c", Map.of("error", error)));

        HistoryRecord record = HistoryStore.withinOneRecord(entries);

        assertThat(RecordSerde.write(record).length).isLessThanOrEqualTo(RecordSerde.MAX_RECORD_BYTES);
        assertThat(record.entries()).extracting(HistoryEntry::detail)
                .containsOnly(Map.of(HistoryStore.OMITTED, List.of("error")));
        assertThat(record.entries()).extracting(HistoryEntry::to).containsOnly("failed");
    }

    private static HistoryEntry entry(String stepId, Map<String, Object> detail) {
        return new HistoryEntry(1, AT, HistoryEntry.STEP, stepId, "active", "failed", 1, Actor.BY_ENGINE, detail);
    }
}
