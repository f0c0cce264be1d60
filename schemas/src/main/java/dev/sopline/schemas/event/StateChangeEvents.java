package dev.sopline.schemas.event;

import com.github.f4b6a3.ulid.UlidCreator;
import dev.sopline.schemas.json.Json;
import io.cloudevents.CloudEvent;
import io.cloudevents.core.builder.CloudEventBuilder;
import io.cloudevents.core.data.PojoCloudEventData;
import io.cloudevents.jackson.JsonFormat;
import java.net.URI;
import java.time.Instant;
import java.time.ZoneOffset;

/**
 * The CloudEvents 1.0 JSON envelopes of {@code sop.events}: {@code source} names the workspace and process,
 * {@code subject} the instance, so a subscriber can route without reading {@code data}.
 */
public final class StateChangeEvents {

    public static final String INSTANCE_STATE_CHANGED = "sop.instance.state_changed";
    public static final String STEP_STATE_CHANGED = "sop.step.state_changed";
    public static final String INSTANCE_RETRIED = "sop.instance.retried";
    private static final String JSON = "application/json";
    private static final JsonFormat FORMAT = new JsonFormat();

    private StateChangeEvents() {}

    public static byte[] instanceChanged(InstanceStateChanged data, Instant time) {
        return instanceChanged(data, time, UlidCreator.getMonotonicUlid().toString());
    }

    /** The envelope with the given id: the engine derives ids from the log, so a replay publishes the same ones. */
    public static byte[] instanceChanged(InstanceStateChanged data, Instant time, String id) {
        return envelope(id, INSTANCE_STATE_CHANGED, data.instance().workspace(), data.instance().process(), data.instance().id(), data, time);
    }

    public static byte[] stepChanged(StepStateChanged data, Instant time) {
        return stepChanged(data, time, UlidCreator.getMonotonicUlid().toString());
    }

    /** The envelope with the given id: the engine derives ids from the log, so a replay publishes the same ones. */
    public static byte[] stepChanged(StepStateChanged data, Instant time, String id) {
        return envelope(id, STEP_STATE_CHANGED, data.workspace(), data.process(), data.instanceId(), data, time);
    }

    public static byte[] instanceRetried(InstanceRetried data, Instant time) {
        return instanceRetried(data, time, UlidCreator.getMonotonicUlid().toString());
    }

    /** The envelope with the given id: the engine derives ids from the log, so a replay publishes the same ones. */
    public static byte[] instanceRetried(InstanceRetried data, Instant time, String id) {
        return envelope(id, INSTANCE_RETRIED, data.instance().workspace(), data.instance().process(), data.instance().id(), data, time);
    }

    public static CloudEvent read(byte[] json) {
        return FORMAT.deserialize(json);
    }

    /** The event's data as the record it carries. */
    public static <T> T data(CloudEvent event, Class<T> type) {
        return Json.mapper().readValue(event.getData().toBytes(), type);
    }

    /** The workspace an event belongs to, from its {@code source} {@code /workspaces/<workspace>/processes/<process>}. */
    public static String workspaceOf(CloudEvent event) {
        String[] parts = event.getSource().getPath().split("/");
        return parts.length > 2 ? parts[2] : "";
    }

    public static URI source(String workspace, String process) {
        return URI.create("/workspaces/" + workspace + "/processes/" + process);
    }

    private static byte[] envelope(String id, String type, String workspace, String process, String instanceId, Object data,
            Instant time) {
        byte[] body = Json.mapper().writeValueAsBytes(data);
        CloudEvent event = CloudEventBuilder.v1()
                .withId(id)
                .withType(type)
                .withSource(source(workspace, process))
                .withSubject(instanceId)
                .withTime(time.atOffset(ZoneOffset.UTC))
                .withDataContentType(JSON)
                .withData(PojoCloudEventData.wrap(data, ignored -> body))
                .build();
        return FORMAT.serialize(event);
    }
}
