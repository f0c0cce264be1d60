package dev.sopline.engine.runtime;

import java.util.Map;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProcessingExceptionHandler;
import org.apache.kafka.streams.errors.StreamsException;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kafka Streams' processing exception handler (KIP-1033): the net under the command processor's own policy, which
 * already answers and skips a command it cannot apply. Whatever still escapes a processor or a punctuation is logged
 * with where it happened and skipped: failing the task would read the same record again after each restart.
 *
 * <p>Except a {@link StreamsException}: Kafka's own failure to keep a decision's records (a team's or workspace's topic
 * that cannot be created, a record the producer refused, which {@link ReplyOnlyProductionExceptionHandler} fails). The
 * processors let those through on purpose, and skipping one here would commit the rest of the decision without it: a
 * start answered 201 whose step no worker ever hears of. The task fails instead, its transaction is aborted, and the
 * thread that replaces it decides the command again; a failure that lasts turns the engine unhealthy.
 */
public final class SkippingProcessingExceptionHandler implements ProcessingExceptionHandler {

    private static final Logger LOG = LoggerFactory.getLogger(SkippingProcessingExceptionHandler.class);

    @Override
    public Response handleError(ErrorHandlerContext context, Record<?, ?> record, Exception exception) {
        if (exception instanceof StreamsException) {
            LOG.error("Failing task {} at {}-{}@{} in {}: the decision's records could not be kept; it is decided again", context.taskId(),
                    context.topic(), context.partition(), context.offset(), context.processorNodeId(), exception);
            return Response.fail();
        }
        LOG.error("Skipping the record at {}-{}@{} in {} (task {}): it could not be processed", context.topic(), context.partition(),
                context.offset(), context.processorNodeId(), context.taskId(), exception);
        return Response.resume();
    }

    @Override
    public void configure(Map<String, ?> configs) {
        // nothing to configure
    }
}
