package dev.sopline.gateway.mcp;

import dev.sopline.gateway.command.EngineUnavailableException;
import dev.sopline.gateway.stream.InstanceWaits;
import dev.sopline.gateway.web.WaitingRoom;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;
import org.springframework.web.context.request.async.DeferredResult;

/**
 * {@code get_instance} with {@code wait}: the API's waiting read ({@link InstanceWaits}), held on the MCP request's own
 * thread, since MCP tool calls are answered synchronously. A held read takes one of the web server's request threads
 * for up to 30 s, so a gateway holds at most {@value #LIMIT} at once, shared among workspaces as the writes waiting for
 * the engine are ({@link WaitingRoom}); one more is answered at once, as a read without a wait, and the agent reads
 * again. The API's own waiting reads hold no thread and have bounds of their own.
 */
@Component
class HeldReads {

    static final int LIMIT = 16;

    private final WaitingRoom room = new WaitingRoom(LIMIT);

    HeldReads(MeterRegistry meters) {
        Gauge.builder("sop.gateway.mcp.held_reads", room, WaitingRoom::held)
                .description("get_instance calls with wait holding a request thread now, at most " + LIMIT)
                .register(meters);
    }

    /**
     * @param held starts the waiting read: a result set once the instance settles or the wait has passed
     * @param atOnce the read without a wait, when no place is free
     */
    ResponseEntity<?> read(String workspace, Duration wait, Supplier<DeferredResult<? extends ResponseEntity<?>>> held,
                           Supplier<ResponseEntity<?>> atOnce) {
        if (wait.isZero() || !room.tryEnter(workspace)) {
            return atOnce.get();
        }
        try {
            CompletableFuture<Object> answered = new CompletableFuture<>();
            held.get().setResultHandler(answered::complete);
            // The waiting read answers by itself when its wait and grace have passed; this bound is only a backstop.
            Object answer = answered.get(wait.plus(InstanceWaits.GRACE).plusSeconds(5).toMillis(), TimeUnit.MILLISECONDS);
            if (answer instanceof RuntimeException error) {
                throw error;
            }
            return (ResponseEntity<?>) answer;
        } catch (TimeoutException | ExecutionException e) {
            throw new EngineUnavailableException("Expected the waiting read to answer within its wait", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EngineUnavailableException("Interrupted while waiting for the instance", e);
        } finally {
            room.leave(workspace);
        }
    }
}
