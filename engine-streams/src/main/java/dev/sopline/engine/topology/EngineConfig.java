package dev.sopline.engine.topology;

import dev.sopline.engine.api.DecisionListener;
import dev.sopline.engine.decision.CallbackIds;
import dev.sopline.engine.decision.InstanceBudget;
import dev.sopline.engine.processor.CommandLog;
import dev.sopline.engine.processor.CommandMetrics;
import java.time.Duration;

/**
 * Settings of the topology itself (the Kafka Streams settings live in {@code EngineSettings}).
 *
 * @param timerInterval how often due timers are looked for; the precision of retries, timeouts and schedules
 * @param callbackIds how webhook steps' callback ids are derived, under the engine's secret
 * @param firesPerPunctuation at most this many timers fire (and held starts are released) per punctuation, so a
 *     backlog after downtime is worked off over several punctuations instead of holding the stream thread in one
 * @param instanceBudget how much data one instance may hold, so no record the engine writes for it passes the
 *     broker's limit
 * @param retention how long a finished instance is kept before it is removed with everything that belongs to it
 * @param metrics where each decided command is reported
 * @param listener told of each reply and instance change as it is decided, in this JVM
 * @param commandLog where punctuation writes its commands, outside the engine's transaction; null: through the
 *     topology's own sink, inside it, which holds back the command topic's readers until the commit ({@link CommandLog})
 * @param unsignedCommandsAccepted whether commands without the platform's signature are taken as what they claim to be
 *     ({@code SOP_COMMAND_SIGNATURES=optional}, for an upgrade from a release that did not sign; {@link VerifiedCommands})
 */
public record EngineConfig(Duration timerInterval, CallbackIds callbackIds, int firesPerPunctuation, InstanceBudget instanceBudget,
                           Duration retention, CommandMetrics metrics, DecisionListener listener, CommandLog commandLog,
                           boolean unsignedCommandsAccepted) {

    public static final Duration DEFAULT_TIMER_INTERVAL = Duration.ofMillis(100);
    public static final int DEFAULT_FIRES_PER_PUNCTUATION = 500;
    public static final Duration DEFAULT_RETENTION = Duration.ofDays(30);

    public EngineConfig(Duration timerInterval, CallbackIds callbackIds, int firesPerPunctuation, InstanceBudget instanceBudget) {
        this(timerInterval, callbackIds, firesPerPunctuation, instanceBudget, DEFAULT_RETENTION, CommandMetrics.NONE, DecisionListener.NONE, null, false);
    }

    public EngineConfig(Duration timerInterval, CallbackIds callbackIds) {
        this(timerInterval, callbackIds, DEFAULT_FIRES_PER_PUNCTUATION);
    }

    public EngineConfig(Duration timerInterval, CallbackIds callbackIds, int firesPerPunctuation) {
        this(timerInterval, callbackIds, firesPerPunctuation, InstanceBudget.defaults());
    }

    public EngineConfig withRetention(Duration newRetention) {
        return new EngineConfig(timerInterval, callbackIds, firesPerPunctuation, instanceBudget, newRetention, metrics, listener, commandLog, unsignedCommandsAccepted);
    }

    public EngineConfig withMetrics(CommandMetrics newMetrics) {
        return new EngineConfig(timerInterval, callbackIds, firesPerPunctuation, instanceBudget, retention, newMetrics, listener, commandLog, unsignedCommandsAccepted);
    }

    public EngineConfig withListener(DecisionListener newListener) {
        return new EngineConfig(timerInterval, callbackIds, firesPerPunctuation, instanceBudget, retention, metrics, newListener, commandLog, unsignedCommandsAccepted);
    }

    public EngineConfig withCommandLog(CommandLog newCommandLog) {
        return new EngineConfig(timerInterval, callbackIds, firesPerPunctuation, instanceBudget, retention, metrics, listener, newCommandLog, unsignedCommandsAccepted);
    }

    public EngineConfig withUnsignedCommandsAccepted(boolean accepted) {
        return new EngineConfig(timerInterval, callbackIds, firesPerPunctuation, instanceBudget, retention, metrics, listener, commandLog, accepted);
    }
}
