package dev.sopline.gateway.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.gateway.command.EngineUnavailableException;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.springframework.http.ResponseEntity;

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

    @Test
    void shouldHideTheCauseWhenSomethingUnexpectedFails() {
        ResponseEntity<ErrorBody> response = handler.unexpected(new IllegalStateException("secret internals"));

        assertThat(response.getStatusCode().value()).isEqualTo(500);
        assertThat(response.getBody().error()).isEqualTo("internal");
        assertThat(response.getBody().message()).doesNotContain("secret internals");
    }
}
