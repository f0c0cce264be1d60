package dev.sopline.gateway.web;

import dev.sopline.engine.api.query.StateUnavailableException;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;
import org.springframework.web.context.request.async.DeferredResult;
import tools.jackson.databind.json.JsonMapper;

/**
 * Answers a held read ({@code GET /sop/:name/:id?wait=}) on the servlet's own async context, without Spring MVC's
 * async dispatch. A {@link DeferredResult} returned to Spring MVC is answered by dispatching the request a second time
 * through the filter chain, the handler mapping, the controller's invocation and the request observation, only to write
 * a body that is ready: on the closed loop at 64 instances in flight, that second pass was about a quarter of the
 * HTTP threads' samples. Here the answer's JSON is written on a request thread of the container
 * ({@link AsyncContext#start}, so a slow client holds one of those, as any response does, never the thread that
 * answered) and the request completed.
 *
 * <p>Failures (a 404 of an instance removed meanwhile, a 503, the backstop's time-out) are rare and are answered as
 * every other request's are: the request is dispatched again with the failure attached, and the controller throws it
 * for {@link ApiErrorHandler} to answer ({@link #answer} does so when it finds one).
 */
@Component
public class HeldResponses {

    static final String FAILURE = HeldResponses.class.getName() + ".failure";
    private static final Logger LOG = LoggerFactory.getLogger(HeldResponses.class);

    private final JsonMapper json;

    public HeldResponses(JsonMapper json) {
        this.json = json;
    }

    /**
     * The answer of a read that may be held: when {@code held} has answered already, its answer, written by Spring MVC as
     * any other; otherwise null, and the request stays open until {@code held} answers, or {@code backstop} has passed
     * (503). Called again on the dispatch that carries a failure, it throws that failure without holding anything.
     *
     * @param held starts the held read; called once per request, never on the failure's dispatch
     */
    public ResponseEntity<?> answer(HttpServletRequest request, HttpServletResponse response,
                                    Supplier<? extends DeferredResult<? extends ResponseEntity<?>>> held, Duration backstop) {
        Object failure = request.getAttribute(FAILURE);
        if (failure != null) {
            request.removeAttribute(FAILURE);
            throw (RuntimeException) failure;
        }
        DeferredResult<? extends ResponseEntity<?>> result = held.get();
        if (result.hasResult()) {
            return answered(result.getResult());
        }
        AsyncContext async = request.startAsync(request, response);
        async.setTimeout(backstop.toMillis());
        AtomicBoolean over = new AtomicBoolean();
        async.addListener(new Ended(async, over, result));
        result.setResultHandler(value -> {
            if (!over.compareAndSet(false, true)) {
                return;
            }
            if (value instanceof ResponseEntity<?> entity) {
                async.start(() -> write(async, entity));
            } else {
                fail(async, value instanceof RuntimeException error ? error : new IllegalStateException("A held read failed: " + value));
            }
        });
        return null;
    }

    private static ResponseEntity<?> answered(Object value) {
        if (value instanceof RuntimeException error) {
            throw error;
        }
        return (ResponseEntity<?>) value;
    }

    private void write(AsyncContext async, ResponseEntity<?> entity) {
        byte[] body;
        try {
            body = json.writeValueAsBytes(entity.getBody());
        } catch (RuntimeException e) {
            fail(async, e);
            return;
        }
        try {
            HttpServletResponse response = (HttpServletResponse) async.getResponse();
            response.setStatus(entity.getStatusCode().value());
            entity.getHeaders().forEach((name, values) -> values.forEach(value -> response.addHeader(name, value)));
            response.setContentType(MediaType.APPLICATION_JSON_VALUE);
            response.setContentLength(body.length);
            response.getOutputStream().write(body);
            // Out now, on this thread: completing from outside a dispatch hands the rest to another container thread.
            response.flushBuffer();
        } catch (IOException | RuntimeException e) {
            LOG.debug("A held read's answer could not be written: {}", e.toString());
        } finally {
            complete(async);
        }
    }

    /** Dispatches the request again with the failure, for Spring MVC's error handling to answer. */
    private static void fail(AsyncContext async, RuntimeException failure) {
        try {
            async.getRequest().setAttribute(FAILURE, failure);
            async.dispatch();
        } catch (IllegalStateException gone) {
            LOG.debug("A held read's failure could not be answered: {}", gone.toString());
        }
    }

    private static void complete(AsyncContext async) {
        try {
            async.complete();
        } catch (IllegalStateException gone) {
            LOG.debug("A held read was over before its answer: {}", gone.toString());
        }
    }

    /**
     * Ends the hold from the container's side: its backstop time-out is answered 503; a client gone or an error ends it
     * unanswered. Either way the held read is told ({@link DeferredResult#isSetOrExpired}), so its waiter is let go.
     */
    private static final class Ended implements AsyncListener {
        private final AsyncContext async;
        private final AtomicBoolean over;
        private final DeferredResult<?> result;

        Ended(AsyncContext async, AtomicBoolean over, DeferredResult<?> result) {
            this.async = async;
            this.over = over;
            this.result = result;
        }

        @Override
        public void onTimeout(AsyncEvent event) {
            if (over.compareAndSet(false, true)) {
                fail(async, new StateUnavailableException("The held read was not answered in time"));
            }
            result.setErrorResult(new StateUnavailableException("The held read timed out"));
        }

        @Override
        public void onError(AsyncEvent event) {
            over.set(true);
            result.setErrorResult(new StateUnavailableException("The held read's connection failed"));
        }

        @Override
        public void onComplete(AsyncEvent event) {
            over.set(true);
            result.setErrorResult(new StateUnavailableException("The held read is over"));
        }

        @Override
        public void onStartAsync(AsyncEvent event) {
            // Not started again: the failure's dispatch answers without holding.
        }
    }
}
