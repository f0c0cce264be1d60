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

    private static final SopProperties PROPERTIES =
            new SopProperties(new SopProperties.Kafka("unused"), null, null, null, null, null, null, null, null);

    private final RequestBodyFilter filter = new RequestBodyFilter(PROPERTIES);

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

    @Test
    void shouldTurnABodyAwayUnreadWhenTheBodiesBeingReadHoldTheWholeBudget() throws Exception {
        // 100 bytes of budget, and a request that declares 1,000 of which 10 have come: it would pass the budget, so it
        // is answered 503 at once, none of its body waited for, and the connection closed so that the rest is not read.
        RequestBodyFilter full = new RequestBodyFilter(PROPERTIES, 100);
        MockHttpServletRequest request = declaring(1000, "{\"input\":");
        MockHttpServletResponse response = new MockHttpServletResponse();
        AtomicReference<ServletRequest> handed = new AtomicReference<>();

        full.doFilter(request, response, (req, res) -> handed.set(req));

        assertThat(response.getStatus()).isEqualTo(503);
        assertThat(response.getHeader("Retry-After")).isEqualTo("1");
        assertThat(response.getHeader("Connection")).isEqualTo("close");
        assertThat(response.getContentAsString()).contains("\"error\":\"unavailable\"");
        assertThat(request.isAsyncStarted()).as("answered and completed outside the request's dispatch").isFalse();
        assertThat(handed.get()).as("no handler ran").isNull();
        assertThat(full.bufferedBytes()).as("nothing held for it").isZero();
    }

    @Test
    void shouldTakeBodiesAgainOnceTheBodiesBeingReadAreDone() throws Exception {
        // 800 bytes in all, 100 for one client: four of these bodies at once would take its share.
        RequestBodyFilter budgeted = new RequestBodyFilter(PROPERTIES, 800);
        String body = "{\"input\":{\"amount\":12}}";
        for (int i = 0; i < 10; i++) {
            AtomicReference<ServletRequest> handed = new AtomicReference<>();
            MockHttpServletResponse response = new MockHttpServletResponse();
            budgeted.doFilter(declaring(body.length(), body), response, (req, res) -> handed.set(req));
            assertThat(handed.get()).as("request %d", i).isNotNull();
        }
        assertThat(budgeted.bufferedBytes()).as("each body's bytes given back when its handler is done").isZero();
    }

    @Test
    void shouldKeepOneClientToItsShareOfTheBudget() throws Exception {
        // 800 bytes in all, an eighth of them for each client.
        RequestBodyFilter shared = new RequestBodyFilter(PROPERTIES, 800);
        String body = "x".repeat(90);
        MockHttpServletRequest fromOne = declaring(150, body);
        fromOne.setRemoteAddr("2001:db8:1:2::1");
        MockHttpServletResponse refused = new MockHttpServletResponse();

        shared.doFilter(fromOne, refused, (req, res) -> {});

        assertThat(refused.getStatus()).as("past the client's share, within the whole budget").isEqualTo(503);
        MockHttpServletRequest fromAnother = declaring(body.length(), body);
        fromAnother.setRemoteAddr("192.0.2.7");
        AtomicReference<ServletRequest> handed = new AtomicReference<>();
        shared.doFilter(fromAnother, new MockHttpServletResponse(), (req, res) -> handed.set(req));
        assertThat(handed.get()).as("another client's body within its share").isNotNull();
        assertThat(shared.bufferedBytesOf("192.0.2.7")).isZero();
    }

    /** A JSON request that declares {@code declared} bytes, of which {@code arrived} have come. */
    private static MockHttpServletRequest declaring(long declared, String arrived) {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/sop/review/start") {
            @Override
            public long getContentLengthLong() {
                return declared;
            }
        };
        request.setAsyncSupported(true);
        request.setContentType("application/json");
        request.setContent(arrived.getBytes(StandardCharsets.UTF_8));
        return request;
    }
}
