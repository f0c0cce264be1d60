package dev.sopline.worker;

import dev.sopline.schemas.topic.Topics;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a Kafka worker's results and heartbeats go. By default straight to the engine's command topic, as the command
 * the engine makes of a result from {@code sop.step-results}: the engine decides from that one log, so a result
 * written there skips the relay's copy, one produce-and-fetch hop at every step. The engine takes an unsigned record
 * on that topic only as a worker's result, with its result key checked as on {@code sop.step-results} (the platform's
 * own commands are signed), so writing there gives a worker no more than writing to {@code sop.step-results} does.
 *
 * <p>Where the broker's ACLs do not let the worker write to the command topic, the first result is refused; that one
 * and every later one go to {@code sop.step-results}, which the engines relay, as they do for workers of other
 * languages.
 */
final class ResultRoute {

    static final String COMMANDS = Topics.COMMANDS;
    private static final Logger LOG = LoggerFactory.getLogger(ResultRoute.class);
    /** The result's JSON becomes the command by wrapping, not by writing it again. */
    private static final byte[] OPEN = "{\"command\":\"report_step_result\",\"result\":".getBytes(StandardCharsets.UTF_8);
    private static final byte CLOSE = '}';

    private final String workerId;
    private volatile boolean direct;
    private final AtomicBoolean switchedOver = new AtomicBoolean();

    /** @param direct whether results go to the command topic first, or only ever to {@code sop.step-results} */
    ResultRoute(String workerId, boolean direct) {
        this.workerId = workerId;
        this.direct = direct;
    }

    /** The record of a result or heartbeat, {@code resultJson} as {@code sop.step-results} holds one. */
    ProducerRecord<String, byte[]> record(String instanceId, byte[] resultJson) {
        if (!direct) {
            return new ProducerRecord<>(Topics.STEP_RESULTS, instanceId, resultJson);
        }
        byte[] command = new byte[OPEN.length + resultJson.length + 1];
        System.arraycopy(OPEN, 0, command, 0, OPEN.length);
        System.arraycopy(resultJson, 0, command, OPEN.length, resultJson.length);
        command[command.length - 1] = CLOSE;
        return new ProducerRecord<>(COMMANDS, instanceId, command);
    }

    /**
     * Whether {@code failure} was the broker refusing this worker the command topic. Results go to
     * {@code sop.step-results} from then on, and the refused one may be sent again there at once: nothing of it was
     * written. True for every result refused so, those that were in flight beside the first one too.
     */
    boolean refusedDirect(Throwable failure) {
        if (!(failure instanceof TopicAuthorizationException refused) || !refused.unauthorizedTopics().contains(COMMANDS)) {
            return false;
        }
        if (switchedOver.compareAndSet(false, true)) {
            direct = false;
            LOG.info("Worker {} may not write to {}; sending its results to {}, which the engines relay", workerId, COMMANDS, Topics.STEP_RESULTS);
        }
        return true;
    }
}
