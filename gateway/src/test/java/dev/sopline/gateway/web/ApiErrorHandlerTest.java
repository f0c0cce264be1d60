package dev.sopline.gateway.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import dev.sopline.gateway.command.CommandsInFlightFullException;
import dev.sopline.gateway.command.EngineUnavailableException;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.springframework.http.ResponseEntity;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

class ApiErrorHandlerTest {

    private final ApiErrorHandler handler = new ApiErrorHandler();

    @Test
    void shouldAnswer503WithRetryAfterWhenTheEngineDoesNotAnswerInTime() {
        ResponseEntity<ErrorBody> response = handler.unavailable(
                new EngineUnavailableException("Expected the engine to answer within 10000 ms", new TimeoutException()));

        assertThat(response.getStatusCode().value()).isEqualTo(503);
        assertThat(response.getHeaders().getFirst("Retry-After")).isEqualTo("1");
        assertThat(response.getBody().error()).isEqualTo("unavailable");
    }

    /** A write turned away because too many wait already: 503 with Retry-After and the contract's code, not a 500. */
    @Test
    void shouldAnswer503WithRetryAfterWhenACommandIsTurnedAwayForTooManyInFlight() throws Exception {
        MockMvc mvc = MockMvcBuilders.standaloneSetup(new TurningAway()).setControllerAdvice(handler).build();

        mvc.perform(post("/turned-away"))
                .andExpect(status().isServiceUnavailable())
                .andExpect(header().string("Retry-After", "1"))
                .andExpect(jsonPath("$.error").value("unavailable"))
                .andExpect(jsonPath("$.message").value(org.hamcrest.Matchers.containsString("this one was not taken")));
    }

    @RestController
    static class TurningAway {

        @PostMapping("/turned-away")
        String write() {
            throw new CommandsInFlightFullException(128);
        }
    }

    @Test
    void shouldHideTheCauseWhenSomethingUnexpectedFails() {
        ResponseEntity<ErrorBody> response = handler.unexpected(new IllegalStateException("secret internals"));

        assertThat(response.getStatusCode().value()).isEqualTo(500);
        assertThat(response.getBody().error()).isEqualTo("internal");
        assertThat(response.getBody().message()).doesNotContain("secret internals");
    }
}
