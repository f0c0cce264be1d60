package dev.sopline.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.testing.SopApi;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** One instance's data is limited to 256 KiB (CONTRACT section 8, "Sizes"): past it, 413, and the engine goes on serving. */
class PoisonRecordsIT extends GatewayTestBase {

    private static final String PROCESS = """
            engine: "0.1"
            process:
              name: poison-review
              version: "1.0"
              inputs:
                - name: title
                  required: true
              steps:
                - id: review
                  type: form
                  outputs:
                    - name: verdict
            """;

    @Test
    void shouldAnswerPayloadTooLargeToAnOversizedStartAndStartTheNextOne() {
        SopApi api = api();
        assertThat(api.register(PROCESS).status()).isEqualTo(201);

        SopApi.Response oversized = api.start("poison-review", Map.of("title", "x".repeat(600 * 1024)));
        SopApi.Response normal = api.start("poison-review", Map.of("title", "fine"));

        assertThat(oversized.status()).isEqualTo(413);
        assertThat(oversized.json().path("error").asText()).isEqualTo("payload_too_large");
        assertThat(normal.status()).isEqualTo(201);
    }
}
