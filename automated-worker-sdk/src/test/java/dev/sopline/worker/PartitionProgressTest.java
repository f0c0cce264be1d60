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

        assertThat(progress.committable()).hasValue(10);
        assertThat(progress.running()).isEqualTo(1);
        progress.done(10, true);
        assertThat(progress.committable()).as("past the last step handed out").hasValue(13);
        assertThat(progress.running()).isZero();
    }

    @Test
    void shouldCommitNothingBeforeItsFirstRecordAndCountAStepDoneOnce() {
        PartitionProgress progress = new PartitionProgress();
        assertThat(progress.committable()).isEmpty();

        progress.handedOut(4);
        progress.started();
        progress.done(4, true);
        progress.done(4, true);

        assertThat(progress.running()).isZero();
        assertThat(progress.committable()).hasValue(5);
    }
}
