package dev.sopline.gateway.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.gateway.config.SopProperties;
import jakarta.servlet.ServletRequest;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

/**
 * A body that has arrived whole with the request is handed to the handler in the same dispatch; the paths that wait
 * for bytes still to come (trickled, chunked, split bodies) are held by {@code PathAndBodyHardeningIT} on a real server.
 */
class RequestBodyFilterTest {

    private final RequestBodyFilter filter = new RequestBodyFilter(
            new SopProperties(new SopProperties.Kafka("unused"), null, null, null, null, null, null, null, null));

    @Test
    void shouldHandABodyThatHasArrivedToTheHandlerWithoutGoingAsync() throws Exception {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/sop/review/start");
        request.setAsyncSupported(true);
        request.setContentType("application/json");
        request.setContent("{\"input\":{\"amount\":12}}".getBytes(StandardCharsets.UTF_8));
        AtomicReference<ServletRequest> handed = new AtomicReference<>();

        filter.doFilter(request, new MockHttpServletResponse(), (req, res) -> handed.set(req));

        assertThat(request.isAsyncStarted()).isFalse();
        assertThat(handed.get()).isNotNull();
        assertThat(new String(handed.get().getInputStream().readAllBytes(), StandardCharsets.UTF_8))
                .isEqualTo("{\"input\":{\"amount\":12}}");
    }
}
