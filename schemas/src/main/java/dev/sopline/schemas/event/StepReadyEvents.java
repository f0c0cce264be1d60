package dev.sopline.schemas.event;

import io.cloudevents.CloudEvent;
import io.cloudevents.core.builder.CloudEventBuilder;
import io.cloudevents.core.data.BytesCloudEventData;
import java.time.ZoneOffset;

/**
 * The CloudEvent a {@link StepReady} record is on {@code sop.steps.<type>}: its attributes travel as the Kafka
 * binding's {@code ce_*} headers (binary mode) and the record's value stays the {@link StepReady} JSON itself, so
 * workers that read the value as they always did keep working. {@code source} and {@code subject} are those of the
 * instance's state changes on {@code sop.events}.
 */
public final class StepReadyEvents {

    public static final String STEP_READY = "sop.step.ready";
    private static final String JSON = "application/json";

    private StepReadyEvents() {}

    /**
     * The event of one step attempt becoming active, with {@code json} (the serialized {@code ready}) as its data.
     * The id is derived from the instance, step, attempt and time, so the copy a replay writes after a crash has
     * the id of the first.
     */
    public static CloudEvent of(StepReady ready, byte[] json) {
        return CloudEventBuilder.v1()
                .withId(idOf(ready))
                .withType(STEP_READY)
                .withSource(StateChangeEvents.source(ready.workspace(), ready.process()))
                .withSubject(ready.instanceId())
                .withTime(ready.createdAt().atOffset(ZoneOffset.UTC))
                .withDataContentType(JSON)
                .withData(BytesCloudEventData.wrap(json))
                .build();
    }

    /** The event's id (see {@link #of}). */
    public static String idOf(StepReady ready) {
        String attempt = String.join("\n", ready.workspace(), ready.instanceId(), ready.stepId(), String.valueOf(ready.attempt()),
                ready.createdAt().toString());
        return HashedUlids.of(ready.createdAt().toEpochMilli(), attempt);
    }
}
