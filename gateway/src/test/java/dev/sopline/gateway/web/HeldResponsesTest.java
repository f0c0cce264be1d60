package dev.sopline.gateway.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sopline.engine.api.query.StateUnavailableException;
import dev.sopline.schemas.json.Json;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.http.ResponseEntity;
import org.springframework.mock.web.MockAsyncContext;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.web.context.request.async.DeferredResult;

/** A held read answered on the servlet's async context: written once it is ready, failures dispatched to the error handling. */
class HeldResponsesTest {

    private static final Duration BACKSTOP = Duration.ofSeconds(45);

    private final HeldResponses responses = new HeldResponses(Json.mapper());
    private final MockHttpServletRequest request = new MockHttpServletRequest("GET", "/sop/review/01J0?wait=30");
    private final MockHttpServletResponse response = new MockHttpServletResponse();
    private final DeferredResult<ResponseEntity<Map<String, Object>>> held = new DeferredResult<>();

    HeldResponsesTest() {
        request.setAsyncSupported(true);
    }

    @Test
    void shouldWriteTheAnswerOnceReadyWithoutDispatchingTheRequestAgain() throws Exception {
        assertThat(responses.answer(request, response, () -> held, BACKSTOP)).as("nothing to write yet").isNull();
        assertThat(request.isAsyncStarted()).isTrue();

        held.setResult(ResponseEntity.ok().header("X-SOP-Stale", "true").body(Map.of("id", "01J0", "state", "completed")));

        MockAsyncContext async = (MockAsyncContext) request.getAsyncContext();
        assertThat(async.getDispatchedPath()).as("no second pass through the filters and the controller").isNull();
        assertThat(request.isAsyncStarted()).as("completed").isFalse();
        assertThat(response.getStatus()).isEqualTo(200);
        assertThat(response.getContentType()).isEqualTo("application/json");
        assertThat(response.getHeader("X-SOP-Stale")).isEqualTo("true");
        assertThat(Json.mapper().readTree(response.getContentAsByteArray()).path("state").asString()).isEqualTo("completed");
    }

    @Test
    void shouldWriteOnAThreadOfTheContainerNeverOnTheThreadThatAnswered() throws Exception {
        List<Runnable> containerTasks = new ArrayList<>();
        MockHttpServletRequest held = new MockHttpServletRequest("GET", "/sop/review/01J0?wait=30") {
            @Override
            public AsyncContext startAsync(ServletRequest request, ServletResponse response) {
                super.startAsync(request, response);
                // A container that runs started tasks later, on a thread of its own.
                MockAsyncContext queued = new MockAsyncContext(request, response) {
                    @Override
                    public void start(Runnable task) {
                        containerTasks.add(task);
                    }
                };
                setAsyncContext(queued);
                return queued;
            }
        };
        held.setAsyncSupported(true);
        responses.answer(held, response, () -> this.held, BACKSTOP);

        // The wait's reader answers: a client that does not read must not hold that thread.
        this.held.setResult(ResponseEntity.ok(Map.of("state", "completed")));
        assertThat(response.getContentAsByteArray()).isEmpty();

        containerTasks.forEach(Runnable::run);
        assertThat(Json.mapper().readTree(response.getContentAsByteArray()).path("state").asString()).isEqualTo("completed");
    }

    @Test
    void shouldAnswerAtOnceWhatIsReadyWithoutHolding() {
        held.setResult(ResponseEntity.ok(Map.of("state", "waiting")));

        ResponseEntity<?> answer = responses.answer(request, response, () -> held, BACKSTOP);

        assertThat(answer.getBody()).isEqualTo(Map.of("state", "waiting"));
        assertThat(request.isAsyncStarted()).isFalse();
    }

    @Test
    void shouldDispatchAFailureAgainAndThrowItThereWithoutReadingAgain() {
        AtomicInteger reads = new AtomicInteger();
        responses.answer(request, response, () -> {
            reads.incrementAndGet();
            return held;
        }, BACKSTOP);
        ApiException removed = new ApiException(404, "not_found", "No such instance");

        held.setErrorResult(removed);

        MockAsyncContext async = (MockAsyncContext) request.getAsyncContext();
        assertThat(async.getDispatchedPath()).as("dispatched again, for the error handling to answer").isNotNull();
        assertThatThrownBy(() -> responses.answer(request, response, () -> {
            reads.incrementAndGet();
            return held;
        }, BACKSTOP)).isSameAs(removed);
        assertThat(reads).as("the failure's dispatch starts no second held read").hasValue(1);
    }

    @Test
    void shouldAnswer503WhenTheBackstopPassesAndLetTheHeldReadGo() throws IOException {
        responses.answer(request, response, () -> held, BACKSTOP);
        MockAsyncContext async = (MockAsyncContext) request.getAsyncContext();
        assertThat(async.getTimeout()).isEqualTo(BACKSTOP.toMillis());

        for (AsyncListener listener : async.getListeners()) {
            listener.onTimeout(new AsyncEvent(async));
        }

        assertThat(async.getDispatchedPath()).isNotNull();
        assertThatThrownBy(() -> responses.answer(request, response, () -> held, BACKSTOP)).isInstanceOf(StateUnavailableException.class);
        assertThat(held.isSetOrExpired()).as("its waiter is let go at its next read").isTrue();
        held.setResult(ResponseEntity.ok(Map.of("state", "completed")));
        assertThat(response.getContentLength()).as("nothing written after the time-out").isZero();
    }

    @Test
    void shouldLetTheHeldReadGoWhenTheClientIsGone() throws IOException {
        responses.answer(request, response, () -> held, BACKSTOP);
        MockAsyncContext async = (MockAsyncContext) request.getAsyncContext();

        for (AsyncListener listener : async.getListeners()) {
            listener.onError(new AsyncEvent(async, new IOException("Broken pipe")));
        }

        assertThat(held.isSetOrExpired()).isTrue();
        assertThat(async.getDispatchedPath()).isNull();
    }
}
