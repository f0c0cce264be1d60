package dev.sopline.engine.processor;

import dev.sopline.engine.topology.EngineTopology;
import dev.sopline.engine.topology.WorkspaceEvent;
import dev.sopline.engine.topology.WorkspaceEventTopics;
import dev.sopline.schemas.event.StateChangeEvents;
import dev.sopline.schemas.topic.Topics;
import java.util.Optional;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes each state change the command processor decided to {@code sop.events} and, when
 * {@code SOP_EVENTS_TOPIC_PER_WORKSPACE} is on, a copy to {@code sop.events.<workspace>}, so that Kafka ACLs can give
 * a subscriber one workspace's events alone. Both writes belong to the command's transaction: a subscriber reading
 * committed records sees an event on both topics or on neither.
 */
public final class EventTopicsProcessor implements Processor<String, byte[], String, Object> {

    private static final Logger LOG = LoggerFactory.getLogger(EventTopicsProcessor.class);

    private ProcessorContext<String, Object> context;
    private Optional<WorkspaceEventTopics> workspaceTopics;

    @Override
    public void init(ProcessorContext<String, Object> context) {
        this.context = context;
        this.workspaceTopics = WorkspaceEventTopics.from(context.appConfigs());
    }

    @Override
    public void process(Record<String, byte[]> event) {
        context.forward(event.withHeaders(new RecordHeaders()), EngineTopology.EVENTS_SINK);
        workspaceTopics.ifPresent(topics -> {
            // The workspace is the one in the envelope's source, the same field the gateway's readers route by.
            String workspace = StateChangeEvents.workspaceOf(StateChangeEvents.read(event.value()));
            if (WorkspaceEventTopics.isWorkspaceName(workspace)) {
                context.forward(event.withValue((Object) new WorkspaceEvent(topics.ensure(workspace), event.value()))
                        .withHeaders(new RecordHeaders()), EngineTopology.WORKSPACE_EVENTS_SINK);
            } else {
                LOG.warn("Event of instance {} names no valid workspace ('{}'); it is on {} only", event.key(), workspace, Topics.EVENTS);
            }
        });
    }

    @Override
    public void close() {
        workspaceTopics.ifPresent(WorkspaceEventTopics::close);
    }
}
