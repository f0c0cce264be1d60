package dev.sopline.engine.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.withinPercentage;

import dev.sopline.engine.api.view.DurationBins;
import dev.sopline.engine.api.view.WindowBucket;
import dev.sopline.schemas.command.Actor;
import dev.sopline.schemas.command.RetryInstance;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What happened in a window (CONTRACT section 9), from per-minute and per-hour buckets. */
class MetricsWindowTest {

    private static final String QUICK = "01JW0000000000000000000001";
    private static final String SLOW = "01JW0000000000000000000002";
    private static final String DROPPED = "01JW0000000000000000000003";
    private static final String UNSURE = "01JW0000000000000000000004";

    private final EngineHarness engine = new EngineHarness();
    private final IndexReads reads = new IndexReads(engine);

    @AfterEach
    void close() {
        engine.close();
    }

    /** Three instances started; one completed after 2 minutes, one after 10, one cancelled; one escalation. */
    private void givenAnHourOfWork() {
        engine.register("two-step.yaml");
        engine.register("judgment.yaml");
        engine.start(QUICK, "two-step", Map.of("title", "a"));
        engine.start(SLOW, "two-step", Map.of("title", "b"));
        engine.start(DROPPED, "two-step", Map.of("title", "c"));
        engine.start(UNSURE, "triage", Map.of("ticket", "Printer is slow"));
        engine.agentResult(UNSURE, "classify", 1, Map.of("urgency", "low"), 0.2);
        engine.advance(Duration.ofMinutes(2));
        complete(QUICK);
        engine.advance(Duration.ofMinutes(8));
        complete(SLOW);
        engine.advance(Duration.ofMinutes(1));
        engine.cancel(DROPPED, "two-step");
    }

    private void complete(String id) {
        engine.submit(id, "two-step", "draft", Map.of("text", "t"));
        engine.submit(id, "two-step", "review", Map.of("verdict", "accept"));
    }

    @Test
    void shouldCountWhatStartedAndEndedInTheWindowWithDurationPercentiles() {
        // given
        givenAnHourOfWork();

        // when
        WindowBucket lastHour = reads.window(engine.now().minus(Duration.ofHours(1)), engine.now());

        // then
        assertThat(lastHour.started()).isEqualTo(4);
        assertThat(lastHour.completed()).isEqualTo(2);
        assertThat(lastHour.cancelled()).isEqualTo(1);
        assertThat(lastHour.failed()).isZero();
        assertThat(lastHour.escalations()).isEqualTo(1);
        assertThat(lastHour.maxDurationMs()).isEqualTo(Duration.ofMinutes(10).toMillis());
        assertThat(DurationBins.percentile(lastHour.durationBins(), 50, lastHour.maxDurationMs()))
                .isCloseTo(Duration.ofMinutes(2).toMillis(), withinPercentage(2));
        assertThat(DurationBins.percentile(lastHour.durationBins(), 95, lastHour.maxDurationMs()))
                .isEqualTo(Duration.ofMinutes(10).toMillis());
    }

    @Test
    void shouldCountAnInstanceThatFailedAndCompletedAfterARetryAsEndingTwice() {
        // given an instance whose step timed out (1 h), failing it, and which an operator retried
        engine.register("automated.yaml");
        engine.start(QUICK, "billing", Map.of("amount", 12));
        engine.advance(Duration.ofMinutes(61));
        engine.send(new RetryInstance("retry-1", EngineHarness.WORKSPACE, QUICK, "billing", Actor.token("tok-ops", "ops")));

        // when its second attempt completes
        engine.workerResult(QUICK, "charge", 2, Map.of("receipt", "r-1"));

        // then the window counts each end at its own time: one start, one failure and one completion
        WindowBucket lastDay = reads.window(engine.now().minus(Duration.ofDays(1)), engine.now());
        assertThat(lastDay.started()).isEqualTo(1);
        assertThat(lastDay.failed()).isEqualTo(1);
        assertThat(lastDay.completed()).isEqualTo(1);
    }

    @Test
    void shouldLeaveOutWhatHappenedBeforeTheWindow() {
        // given
        givenAnHourOfWork();

        // when two hours later
        engine.advance(Duration.ofHours(2));
        WindowBucket lastHour = reads.window(engine.now().minus(Duration.ofHours(1)), engine.now());
        WindowBucket lastDay = reads.window(engine.now().minus(Duration.ofDays(1)), engine.now());

        // then
        assertThat(lastHour).isEqualTo(WindowBucket.empty());
        assertThat(DurationBins.percentile(lastHour.durationBins(), 50, lastHour.maxDurationMs())).isNull();
        assertThat(lastDay.started()).isEqualTo(4);
        assertThat(lastDay.completed()).isEqualTo(2);
        assertThat(lastDay.maxDurationMs()).isEqualTo(Duration.ofMinutes(10).toMillis());
    }

    @Test
    void shouldRemoveBucketsOlderThanTheLongestWindow() {
        // given
        givenAnHourOfWork();

        // when
        engine.advance(Duration.ofDays(31));
        engine.advance(Duration.ofMillis(100));

        // then
        assertThat(reads.keys(EngineTopology.WINDOW_STORE)).isEmpty();
    }
}
