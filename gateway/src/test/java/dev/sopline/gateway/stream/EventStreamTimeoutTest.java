package dev.sopline.gateway.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.asyncDispatch;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.request;

import dev.sopline.gateway.web.ApiErrorHandler;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.mock.web.MockAsyncContext;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/** A stream that reaches the end of its lifetime ends cleanly: the client reconnects, and operators see no error. */
@ExtendWith(OutputCaptureExtension.class)
class EventStreamTimeoutTest {

    @RestController
    static class Streams {
        private final EventStream stream = new EventStream(null, null);

        @GetMapping("/stream")
        SseEmitter open() {
            return stream.subscribe("default", null, "tok_test", true, Duration.ofMinutes(30));
        }
    }

    @Test
    void shouldEndTheStreamWithoutAnErrorWhenItsLifetimeIsOver(CapturedOutput output) throws Exception {
        MockMvc mvc = MockMvcBuilders.standaloneSetup(new Streams()).setControllerAdvice(new ApiErrorHandler()).build();
        MvcResult opened = mvc.perform(get("/stream")).andExpect(request().asyncStarted()).andReturn();

        MockAsyncContext async = (MockAsyncContext) opened.getRequest().getAsyncContext();
        for (AsyncListener listener : async.getListeners()) {
            listener.onTimeout(new AsyncEvent(async));
        }
        MvcResult ended = mvc.perform(asyncDispatch(opened)).andReturn();

        assertThat(ended.getResponse().getStatus()).isEqualTo(200);
        assertThat(ended.getResponse().getContentAsString()).contains(":open").doesNotContain("internal");
        assertThat(output.getAll()).doesNotContain("Unexpected failure").doesNotContain("AsyncRequestTimeoutException");
    }
}
