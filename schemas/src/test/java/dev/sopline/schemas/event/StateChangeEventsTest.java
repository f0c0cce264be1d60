package dev.sopline.schemas.event;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.schemas.instance.InstanceState;
import dev.sopline.schemas.instance.StepState;
import dev.sopline.schemas.instance.StepView;
import dev.sopline.schemas.json.Json;
import io.cloudevents.CloudEvent;
import io.cloudevents.core.builder.CloudEventBuilder;
import io.cloudevents.core.data.PojoCloudEventData;
import io.cloudevents.jackson.JsonFormat;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The envelopes of {@code sop.events} are written without the CloudEvents SDK's writer; subscribers see the same
 * bytes the SDK writes for the same event.
 */
class StateChangeEventsTest {

    private static final JsonFormat SDK = new JsonFormat();

    @Test
    void shouldWriteTheSameBytesAsTheCloudEventsSdkForAnyTimeIdAndData() {
        Random random = new Random(20261127);
        for (int run = 0; run < 2_000; run++) {
            Instant time = randomTime(random);
            String id = "01J" + Long.toString(random.nextLong() & Long.MAX_VALUE, 36).toUpperCase();
            String text = randomText(random);
            StepView step = new StepView("step-" + run, text, dev.sopline.schemas.definition.StepType.AUTOMATED, StepState.ACTIVE,
                    random.nextInt(5), null, null, null, null, Map.of("note", text), null, time, null);
            StepStateChanged stepChanged = new StepStateChanged("ws-" + run % 7, "01JAAAAAAAAAAAAAAAAAAAAAA" + run % 10, "triage",
                    "1." + run % 3, StepState.PENDING, StepState.ACTIVE, step);
            InstanceStateChanged instanceChanged = new InstanceStateChanged(InstanceState.PENDING, InstanceState.RUNNING,
                    EventContractsTest.instance(InstanceState.RUNNING, List.of(step)));

            assertThat(text(StateChangeEvents.stepChanged(stepChanged, time, id)))
                    .isEqualTo(text(sdk(id, StateChangeEvents.STEP_STATE_CHANGED, stepChanged.workspace(), stepChanged.process(),
                            stepChanged.instanceId(), stepChanged, time)));
            assertThat(text(StateChangeEvents.instanceChanged(instanceChanged, time, id)))
                    .isEqualTo(text(sdk(id, StateChangeEvents.INSTANCE_STATE_CHANGED, instanceChanged.instance().workspace(),
                            instanceChanged.instance().process(), instanceChanged.instance().id(), instanceChanged, time)));
        }
    }

    @Test
    void shouldBeReadBackByTheSdkAsTheEventItWasBuiltFrom() {
        Instant time = Instant.parse("2026-03-02T08:00:00.120Z");
        InstanceStateChanged changed = new InstanceStateChanged(InstanceState.RUNNING, InstanceState.COMPLETED,
                EventContractsTest.instance(InstanceState.COMPLETED, List.of()));

        CloudEvent event = StateChangeEvents.read(StateChangeEvents.instanceChanged(changed, time, "01JEVENT"));

        assertThat(event.getId()).isEqualTo("01JEVENT");
        assertThat(event.getType()).isEqualTo(StateChangeEvents.INSTANCE_STATE_CHANGED);
        assertThat(event.getSource()).isEqualTo(StateChangeEvents.source("default", "triage"));
        assertThat(event.getSubject()).isEqualTo(changed.instance().id());
        assertThat(event.getTime()).isEqualTo(time.atOffset(ZoneOffset.UTC));
        assertThat(StateChangeEvents.data(event, InstanceStateChanged.class)).isEqualTo(changed);
    }

    /** The envelope as the SDK builds and writes it: the way the engine wrote every event before. */
    private static byte[] sdk(String id, String type, String workspace, String process, String instanceId, Object data, Instant time) {
        byte[] body = Json.mapper().writeValueAsBytes(data);
        return SDK.serialize(CloudEventBuilder.v1()
                .withId(id)
                .withType(type)
                .withSource(StateChangeEvents.source(workspace, process))
                .withSubject(instanceId)
                .withTime(time.atOffset(ZoneOffset.UTC))
                .withDataContentType("application/json")
                .withData(PojoCloudEventData.wrap(data, ignored -> body))
                .build());
    }

    /** Times as records carry them (whole milliseconds) and finer ones, at whole seconds too, years 1 to 9999. */
    private static Instant randomTime(Random random) {
        long seconds = Math.floorMod(random.nextLong(), 253_402_300_800L - 31_536_000L) + 31_536_000L - 62_135_596_800L;
        int nanos = switch (random.nextInt(5)) {
            case 0 -> 0;
            case 1 -> random.nextInt(1_000) * 1_000_000;
            case 2 -> random.nextInt(10) * 100_000_000;
            case 3 -> random.nextInt(1_000_000) * 1_000;
            default -> random.nextInt(1_000_000_000);
        };
        return Instant.ofEpochSecond(seconds, nanos);
    }

    /** Text with what JSON must escape, and characters beyond ASCII. */
    private static String randomText(Random random) {
        String alphabet = "ab \"\\/\n\t\u0001é€😀<>&'";
        StringBuilder text = new StringBuilder();
        int length = random.nextInt(12);
        for (int index = 0; index < length; index++) {
            text.appendCodePoint(alphabet.codePoints().toArray()[random.nextInt((int) alphabet.codePoints().count())]);
        }
        return text.toString();
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
