package dev.sopline.subscriber;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudevents.CloudEvent;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

class StateChangeDeserializerTest {

    private static final byte[] ENVELOPE = """
            {"specversion":"1.0","id":"01M84XCEJTGP88V5DMBM9PJZ3E","source":"/workspaces/default/processes/expense-approval",
             "type":"sop.step.state_changed","datacontenttype":"application/json","subject":"01M84XBQ783W4Z5C1MEP2AA51S",
             "time":"2026-11-23T19:16:04.314Z","data":{"from":"active","to":"completed","step":{"id":"review"}}}
            """.getBytes(StandardCharsets.UTF_8);
    private static final String LINE = "2026-11-23T19:16:04.314Z  01M84XBQ783W4Z5C1MEP2AA51S  /workspaces/default/processes/expense-approval"
            + "  step review: active -> completed";

    private final StateChangeDeserializer deserializer = new StateChangeDeserializer();

    @Test
    void shouldReadAStructuredModeRecordThroughTheCloudEventsKafkaBinding() {
        RecordHeaders headers = new RecordHeaders();
        headers.add("content-type", "application/cloudevents+json".getBytes(StandardCharsets.UTF_8));

        CloudEvent event = deserializer.deserialize("sop.events", headers, ENVELOPE);

        assertThat(Transition.of(event)).isEqualTo(LINE);
    }

    @Test
    void shouldReadARecordWrittenBeforeTheBindingHeadersAsStructuredJson() {
        CloudEvent event = deserializer.deserialize("sop.events", new RecordHeaders(), ENVELOPE);

        assertThat(Transition.of(event)).isEqualTo(LINE);
    }
}
