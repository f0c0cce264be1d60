package dev.sopline.judgment;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One deadline for a whole decision ({@code SOP_JUDGMENT_DECISION_TIMEOUT}): every call to the model, its retries and
 * the re-ask included. The HTTP client's own timeout stops counting once the response's headers arrive, so a server
 * that trickles its body, or retries that add up, would hold a step, and with it one of the worker's few slots, for as
 * long as they last; a judgment step without {@code timeout} has no deadline of its own to end it.
 *
 * <p>The agent runs on a thread of its own while the step's thread waits. Past the deadline the call is interrupted
 * and abandoned, and the step goes to a person with the reason. The step's result is only what this returns: an
 * abandoned call that answers later has nobody to give its answer to, so an attempt never gets a second result. Calls
 * that ignore their interrupt keep their thread until they end; past {@link #MOST_CALLS} such threads, steps escalate
 * at once instead of starting more.
 */
final class TimeLimitedAgent implements JudgmentAgent {

    private static final Logger LOG = LoggerFactory.getLogger(TimeLimitedAgent.class);
    /** Far above any worker's concurrency: reached only when abandoned calls do not stop. */
    static final int MOST_CALLS = 64;

    private final JudgmentAgent agent;
    private final Duration limit;
    private final ThrottledWarnings warnings = new ThrottledWarnings(LOG);
    private final ThreadPoolExecutor calls = new ThreadPoolExecutor(0, MOST_CALLS, 60, TimeUnit.SECONDS, new SynchronousQueue<>(), runnable -> {
        Thread thread = new Thread(runnable, "judgment-model-call");
        thread.setDaemon(true);
        return thread;
    });

    TimeLimitedAgent(JudgmentAgent agent, Duration limit) {
        if (limit.isNegative() || limit.isZero()) {
            throw new IllegalArgumentException("Expected a decision timeout above zero, but got " + limit);
        }
        this.agent = agent;
        this.limit = limit;
    }

    @Override
    public AgentAnswer decide(JudgmentRequest request) throws UndecidableException {
        Future<AgentAnswer> call;
        try {
            call = calls.submit(() -> agent.decide(request));
        } catch (RejectedExecutionException full) {
            warnings.warn("busy", "%d calls to %s still run past their deadline and ignore their interrupt; judgments go to people until they end"
                    .formatted(MOST_CALLS, agent.model()));
            throw new UndecidableException("The model was not asked: too many earlier calls to it have not ended");
        }
        try {
            return call.get(limit.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException late) {
            call.cancel(true);
            warnings.warn("deadline", "%s did not decide a step of process '%s' within %s (SOP_JUDGMENT_DECISION_TIMEOUT); the step goes to a person"
                    .formatted(agent.model(), request.process(), describe(limit)));
            throw new UndecidableException("The model did not answer within %s, so a person decides".formatted(describe(limit)));
        } catch (InterruptedException stopping) {
            // The worker gave up on the step (its deadline, a stop): it reports nothing, and the call is not needed.
            call.cancel(true);
            Thread.currentThread().interrupt();
            throw new UndecidableException("The worker stopped before the model answered");
        } catch (ExecutionException failed) {
            Throwable cause = failed.getCause();
            if (cause instanceof UndecidableException undecidable) {
                throw undecidable;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            warnings.warn("failed " + cause.getClass().getName(), "%s failed on a step of process '%s': %s"
                    .formatted(agent.model(), request.process(), FailureMessages.of(cause, List.of())));
            throw new UndecidableException("The agent failed: " + cause.getClass().getSimpleName(), null, cause);
        }
    }

    @Override
    public String model() {
        return agent.model();
    }

    private static String describe(Duration duration) {
        long seconds = duration.toSeconds();
        return seconds * 1000 == duration.toMillis() ? seconds + " s" : duration.toMillis() + " ms";
    }
}
