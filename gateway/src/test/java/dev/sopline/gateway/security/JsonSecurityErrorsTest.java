package dev.sopline.gateway.security;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.security.authentication.BadCredentialsException;

/** Failed authentications are counted per client, and a client is an IPv6 host's whole /64. */
class JsonSecurityErrorsTest {

    private final JsonSecurityErrors errors = new JsonSecurityErrors();

    @Test
    void shouldCountFailedAuthenticationsFromOneIpv6NetworkTogether() throws Exception {
        for (int i = 1; i <= JsonSecurityErrors.FAILURES_BURST; i++) {
            assertThat(failFrom("2001:db8:7:7::" + Integer.toHexString(i)).getStatus()).as("guess %d", i).isEqualTo(401);
        }

        MockHttpServletResponse limited = failFrom("2001:db8:7:7:abcd::1");

        assertThat(limited.getStatus()).as("the next guess, from yet another address of the /64").isEqualTo(429);
        assertThat(limited.getContentAsString()).contains("\"error\":\"rate_limited\"");
        assertThat(failFrom("2001:db8:7:8::1").getStatus()).as("another /64").isEqualTo(401);
    }

    private MockHttpServletResponse failFrom(String address) throws Exception {
        MockHttpServletRequest request = new MockHttpServletRequest("GET", "/sop/instances");
        request.setRemoteAddr(address);
        MockHttpServletResponse response = new MockHttpServletResponse();
        errors.commence(request, response, new BadCredentialsException("unknown token"));
        return response;
    }
}
