package dev.sopline.engine.runtime;

import dev.sopline.engine.api.topic.EngineTopics;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProductionExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last line for a record the engine decided but Kafka would not take (too large, unserialisable). The deciders'
 * size budgets keep this from happening; when it does anyway, what is safe under exactly-once depends on the record:
 *
 * <ul>
 *   <li>A reply only informs the waiting client: dropping it keeps the engine going, the client's wait times out and
 *       the outcome can be read back. It is dropped with an ERROR log.</li>
 *   <li>Anything else (state changelogs, events, step-ready records, commands, definitions) is part of the decision:
 *       committing the state change without it would leave, for example, an active step no worker ever hears of.
 *       The task fails instead, the transaction is aborted, and the engine reports itself unhealthy
 *       ({@link Engine#isHealthy()}) rather than looping quietly.</li>
 * </ul>
 */
public final class ReplyOnlyProductionExceptionHandler implements ProductionExceptionHandler {

    private static final Logger LOG = LoggerFactory.getLogger(ReplyOnlyProductionExceptionHandler.class);

    @Override
    public Response handleError(ErrorHandlerContext context, ProducerRecord<byte[], byte[]> record, Exception exception) {
        return decide(context, record.topic(), exception);
    }

    @Override
    public Response handleSerializationError(ErrorHandlerContext context, ProducerRecord record, Exception exception,
                                             SerializationExceptionOrigin origin) {
        return decide(context, record.topic(), exception);
    }

    private static Response decide(ErrorHandlerContext context, String topic, Exception exception) {
        String source = context == null ? "punctuation" : context.topic() + "-" + context.partition() + "@" + context.offset();
        if (EngineTopics.REPLIES.equals(topic)) {
            LOG.error("Dropping a reply to {} decided from {}: {}", topic, source, exception.toString());
            return Response.resume();
        }
        LOG.error("Could not write a record to {} decided from {}; failing the task so the decision is not half kept", topic, source,
                exception);
        return Response.fail();
    }

    @Override
    public void configure(Map<String, ?> configs) {
        // nothing to configure
    }
}
