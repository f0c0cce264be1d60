package dev.sopline.worker;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What a partition may commit while its steps finish out of order. */
class PartitionProgressTest {

    @Test
    void shouldCommitUpToTheFirstStepNotDoneWhileLaterOnesAreDone() {
        PartitionProgress progress = new PartitionProgress();
        for (long offset = 10; offset <= 12; offset++) {
            progress.handedOut(offset);
            progress.started();
        }

        progress.done(11, true);
        progress.done(12, true);

        assertThat(progress.committable(-1)).hasValue(10);
        assertThat(progress.running()).isEqualTo(1);
        progress.done(10, true);
        assertThat(progress.committable(-1)).as("past the last step handed out").hasValue(13);
        assertThat(progress.running()).isZero();
    }

    @Test
    void shouldCommitNothingBeforeItsFirstRecordAndCountAStepDoneOnce() {
        PartitionProgress progress = new PartitionProgress();
        assertThat(progress.committable(-1)).isEmpty();

        progress.handedOut(4);
        progress.started();
        progress.done(4, true);
        progress.done(4, true);

        assertThat(progress.running()).isZero();
        assertThat(progress.committable(-1)).hasValue(5);
    }

    @Test
    void shouldCommitPastTheMarkersAfterItsLastStepOnceNothingIsOutstanding() {
        PartitionProgress progress = new PartitionProgress();
        progress.handedOut(7);
        progress.started();
        // The consumer's position is past the record and the commit marker the engine's transaction wrote after it.
        assertThat(progress.committable(9)).as("a step outstanding holds the offset").hasValue(7);

        progress.done(7, true);
        assertThat(progress.committable(9)).hasValue(9);
        progress.committed(9);
        assertThat(progress.changed(9)).isFalse();

        assertThat(progress.changed(10)).as("the position moved past another marker, with no record").isTrue();
        assertThat(progress.committable(10)).hasValue(10);
        assertThat(progress.committable(-1)).as("a position not known").hasValue(8);
    }

    @Test
    void shouldNotCommitPastRecordsAPollReturnedThatWereNotHandedOut() {
        PartitionProgress progress = new PartitionProgress();
        progress.returned(13);
        progress.handedOut(10);
        progress.done(10, false);
        // Handing out ended on an error after offset 10: 11 and 12 never ran, though the position is past them.

        assertThat(progress.committable(14)).hasValue(11);

        progress.handedOut(11);
        progress.handedOut(12);
        progress.done(11, false);
        progress.done(12, false);
        assertThat(progress.committable(14)).hasValue(14);
    }

    @Test
    void shouldCommitThePositionOfAnAssignedPartitionThatReturnedNoRecord() {
        PartitionProgress progress = new PartitionProgress();
        assertThat(progress.committable(-1)).as("no position known yet").isEmpty();
        assertThat(progress.changed(-1)).isFalse();

        // Its committed offset stopped short of a marker, which the consumer has now read past.
        assertThat(progress.changed(6)).isTrue();
        assertThat(progress.committable(6)).hasValue(6);
        progress.committed(6);
        assertThat(progress.changed(6)).isFalse();
    }
}
