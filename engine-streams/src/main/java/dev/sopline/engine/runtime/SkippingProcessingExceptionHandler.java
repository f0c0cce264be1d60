package dev.sopline.engine.runtime;

import java.util.Map;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProcessingExceptionHandler;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kafka Streams' processing exception handler (KIP-1033): the net under the command processor's own policy, which
 * already answers and skips a command it cannot apply. Whatever still escapes a processor or a punctuation is logged
 * with where it happened and skipped: failing the task would read the same record again after each restart.
 */
public final class SkippingProcessingExceptionHandler implements ProcessingExceptionHandler {

    private static final Logger LOG = LoggerFactory.getLogger(SkippingProcessingExceptionHandler.class);

    @Override
    public Response handleError(ErrorHandlerContext context, Record<?, ?> record, Exception exception) {
        LOG.error("Skipping the record at {}-{}@{} in {} (task {}): it could not be processed", context.topic(), context.partition(),
                context.offset(), context.processorNodeId(), context.taskId(), exception);
        return Response.resume();
    }

    @Override
    public void configure(Map<String, ?> configs) {
        // nothing to configure
    }
}
