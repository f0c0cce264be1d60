package dev.sopline.gateway.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.schemas.command.IdempotencyKey;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;

class IdempotencyKeysTest {

    private final IdempotencyKeys keys = new IdempotencyKeys();
    private final byte[] body = "{\"inputs\":{}}".getBytes(StandardCharsets.UTF_8);

    @Test
    void shouldGiveOneRequestWrittenTwoWaysOneFingerprint() {
        // A retry that percent-encodes its path is the same start: refused as another request with the same key, it
        // would get 422 idempotency_key_reused instead of the first attempt's answer.
        IdempotencyKey plain = keys.of(request("/sop/review/start"), "default", "tok_a", body).orElseThrow();
        IdempotencyKey encoded = keys.of(request("/%73op/review/start"), "default", "tok_a", body).orElseThrow();

        assertThat(encoded).isEqualTo(plain);
        assertThat(keys.of(request("/sop/other/start"), "default", "tok_a", body).orElseThrow().requestHash())
                .as("another path is another request").isNotEqualTo(plain.requestHash());
    }

    /** As the container gives it: the URI as sent, the servlet path decoded. */
    private static MockHttpServletRequest request(String uri) {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", uri);
        request.setServletPath(uri.replace("%73", "s"));
        request.addHeader(IdempotencyKeys.HEADER, "retry-1");
        return request;
    }
}
