package dev.sopline.schemas.event;

import com.github.f4b6a3.ulid.UlidCreator;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.sopline.schemas.json.IsoInstants;
import dev.sopline.schemas.json.Json;
import io.cloudevents.CloudEvent;
import io.cloudevents.jackson.JsonFormat;
import java.net.URI;
import java.time.Instant;

/**
 * The CloudEvents 1.0 JSON envelopes of {@code sop.events}: {@code source} names the workspace and process,
 * {@code subject} the instance, so a subscriber can route without reading {@code data}.
 */
public final class StateChangeEvents {

    public static final String INSTANCE_STATE_CHANGED = "sop.instance.state_changed";
    public static final String STEP_STATE_CHANGED = "sop.step.state_changed";
    public static final String INSTANCE_RETRIED = "sop.instance.retried";
    private static final String JSON = "application/json";
    private static final String SPEC_VERSION = "1.0";
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
        return URI.create(sourceText(workspace, process));
    }

    /** The {@code source} as text: workspace and process names are letters, digits, {@code _} and {@code -}. */
    public static String sourceText(String workspace, String process) {
        return "/workspaces/" + workspace + "/processes/" + process;
    }

    /**
     * The envelope in one pass of the project's mapper, byte for byte what the CloudEvents SDK's {@link JsonFormat}
     * writes for the same event ({@code StateChangeEventsTest}): its attribute order, its time text, and {@code data}
     * as the JSON of the record. Written by hand because envelopes were about an eighth of the engine's stream thread,
     * three fifths of that the SDK's path (an event builder, a {@code URI} parsed per event, the data written to bytes
     * and copied in again, {@code DateTimeFormatter} for the time); reading still goes through the SDK ({@link #read}).
     */
    private static byte[] envelope(String id, String type, String workspace, String process, String instanceId, Object data,
            Instant time) {
        return Json.mapper().writeValueAsBytes(new Envelope(SPEC_VERSION, id, sourceText(workspace, process),
                type, JSON, instanceId, IsoInstants.formatAsOffsetDateTime(time), data));
    }

    /** The structured-mode JSON of a CloudEvent 1.0, in the attribute order the SDK writes. */
    @JsonPropertyOrder({"specversion", "id", "source", "type", "datacontenttype", "subject", "time", "data"})
    record Envelope(String specversion, String id, String source, String type, String datacontenttype, String subject,
                    String time, Object data) {}
}
