package dev.sopline.gateway.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.gateway.api.RequestScope;
import dev.sopline.gateway.config.SopProperties;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

class RateLimitFilterTest {

    private final RateLimitFilter filter = new RateLimitFilter(new SopProperties(new SopProperties.Kafka("unused"), null, Path.of("."), null, null,
            new SopProperties.RateLimit(1, 2), Duration.ofSeconds(1), null, null));

    private MockHttpServletResponse call(String token) throws Exception {
        return call("GET", "/sop/", token);
    }

    private MockHttpServletResponse call(String method, String path, String token) throws Exception {
        return call(method, path, path, token);
    }

    /** A request as the container gives it: its URI as sent, its servlet path decoded (the whole path, DispatcherServlet being at /). */
    private MockHttpServletResponse call(String method, String uri, String path, String token) throws Exception {
        MockHttpServletRequest request = new MockHttpServletRequest(method, uri);
        request.setServletPath(path);
        request.setAttribute(RequestScope.TOKEN_ATTRIBUTE, token);
        MockHttpServletResponse response = new MockHttpServletResponse();
        filter.doFilter(request, response, new MockFilterChain());
        return response;
    }

    @Test
    void shouldCountRequestsWithoutATokenFromOneIpv6NetworkAsOneClient() throws Exception {
        // A host holds its /64 whole: a new address per request would otherwise get a new budget each time.
        assertThat(fromAddress("2001:db8:1:2::1").getStatus()).isEqualTo(200);
        assertThat(fromAddress("2001:db8:1:2::2").getStatus()).isEqualTo(200);

        assertThat(fromAddress("2001:db8:1:2:ffff::3").getStatus()).as("a third address of the same /64").isEqualTo(429);
        assertThat(fromAddress("2001:db8:1:3::1").getStatus()).as("another /64").isEqualTo(200);
        assertThat(fromAddress("192.0.2.1").getStatus()).isEqualTo(200);
        assertThat(fromAddress("192.0.2.2").getStatus()).as("IPv4 addresses count one by one").isEqualTo(200);
    }

    private MockHttpServletResponse fromAddress(String address) throws Exception {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/sop/triggers/onboarding");
        request.setServletPath("/sop/triggers/onboarding");
        request.setRemoteAddr(address);
        MockHttpServletResponse response = new MockHttpServletResponse();
        filter.doFilter(request, response, new MockFilterChain());
        return response;
    }

    @Test
    void shouldAnswer429WithRetryAfterWhenATokenExceedsItsBurst() throws Exception {
        assertThat(call("tok_a").getStatus()).isEqualTo(200);
        assertThat(call("tok_a").getStatus()).isEqualTo(200);

        MockHttpServletResponse limited = call("tok_a");

        assertThat(limited.getStatus()).isEqualTo(429);
        assertThat(limited.getHeader("Retry-After")).isEqualTo("1");
        assertThat(limited.getContentAsString()).contains("\"error\":\"rate_limited\"");
        assertThat(call("tok_b").getStatus()).as("other tokens have their own bucket").isEqualTo(200);
    }

    @Test
    void shouldLimitAPathWrittenWithPercentEncodingAsThePathItDecodesTo() throws Exception {
        // Routed and authorised as /sop/x/start: it takes from the token's bucket like any other request there.
        assertThat(call("POST", "/%73op/x/start", "/sop/x/start", "tok_d").getStatus()).isEqualTo(200);
        assertThat(call("POST", "/%73op/x/start", "/sop/x/start", "tok_d").getStatus()).isEqualTo(200);

        MockHttpServletResponse limited = call("POST", "/%73op/x/start", "/sop/x/start", "tok_d");

        assertThat(limited.getStatus()).isEqualTo(429);
        assertThat(limited.getContentAsString()).contains("\"error\":\"rate_limited\"");
    }

    @Test
    void shouldCountToolCallsOfTheMcpEndpointAgainstTheSameTokensBudget() throws Exception {
        assertThat(call("tok_c").getStatus()).isEqualTo(200);
        assertThat(call("POST", "/mcp", "tok_c").getStatus()).isEqualTo(200);

        assertThat(call("POST", "/mcp", "tok_c").getStatus()).as("an agent's tool calls share the token's budget").isEqualTo(429);
    }

    @Test
    void shouldCloseTheConnectionOfALimitedRequestWhoseBodyHasNotArrived() throws Exception {
        call("tok_e");
        call("tok_e");
        // A chunked body, none of it here yet: the answer does not wait for it, and the connection is closed unread.
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/sop/x/start");
        request.setServletPath("/sop/x/start");
        request.setAttribute(RequestScope.TOKEN_ATTRIBUTE, "tok_e");
        request.addHeader("Transfer-Encoding", "chunked");
        request.setAsyncSupported(true);
        MockHttpServletResponse limited = new MockHttpServletResponse();
        MockFilterChain chain = new MockFilterChain();

        filter.doFilter(request, limited, chain);

        assertThat(limited.getStatus()).isEqualTo(429);
        assertThat(limited.getHeader("Connection")).isEqualTo("close");
        assertThat(limited.getContentAsString()).contains("\"error\":\"rate_limited\"");
        assertThat(request.getAsyncContext()).as("answered outside the request's dispatch, which would read the body").isNotNull();
        assertThat(request.isAsyncStarted()).as("and completed").isFalse();
        assertThat(chain.getRequest()).as("no handler ran").isNull();
    }
}
