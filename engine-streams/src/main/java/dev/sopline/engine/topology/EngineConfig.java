package dev.sopline.engine.topology;

import dev.sopline.engine.decision.CallbackIds;
import java.time.Duration;

/**
 * Settings of the topology itself (the Kafka Streams settings live in {@code EngineSettings}).
 *
 * @param timerInterval how often due timers are looked for; the precision of retries, timeouts and schedules
 * @param callbackIds how webhook steps' callback ids are derived, under the engine's secret
 */
public record EngineConfig(Duration timerInterval, CallbackIds callbackIds) {

    public static final Duration DEFAULT_TIMER_INTERVAL = Duration.ofMillis(100);
}
