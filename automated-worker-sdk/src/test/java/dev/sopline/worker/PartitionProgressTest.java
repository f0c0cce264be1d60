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
}
