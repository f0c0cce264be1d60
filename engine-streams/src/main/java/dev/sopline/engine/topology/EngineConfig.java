package dev.sopline.engine.topology;

import dev.sopline.engine.decision.IdGenerator;
import java.time.Duration;

/**
 * Settings of the topology itself (the Kafka Streams settings live in {@code EngineSettings}).
 *
 * @param timerInterval how often due timers are looked for; the precision of retries, timeouts and schedules
 * @param ids where instance and callback ids come from
 */
public record EngineConfig(Duration timerInterval, IdGenerator ids) {

    public static final Duration DEFAULT_TIMER_INTERVAL = Duration.ofMillis(100);
}
