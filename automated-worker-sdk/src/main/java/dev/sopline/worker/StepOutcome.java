package dev.sopline.worker;

import dev.sopline.schemas.instance.StepError;
import java.util.Map;
import org.slf4j.LoggerFactory;

/** What running a handler gave: outputs, or the error that failed the attempt. */
sealed interface StepOutcome {

    String WORKER_ERROR = "worker_error";

    record Completed(Map<String, Object> outputs) implements StepOutcome {}

    record Failed(StepError error) implements StepOutcome {}

    /**
     * Runs the handler; a failure becomes an error code and message, never a stack trace. An {@link Error} (a class
     * missing at run time, a stack overflow, a failed assertion, even running out of memory) fails the attempt too:
     * left to escape, it would leave the step unreported, to be run again at once and fail again without end. It is
     * the handler's defect, not the worker's, so it is logged with its stack trace and the worker goes on.
     */
    static StepOutcome run(StepHandler handler, StepContext step) {
        try {
            Map<String, Object> outputs = handler.handle(step);
            return new Completed(outputs == null ? Map.of() : outputs);
        } catch (StepFailure failure) {
            return new Failed(failure.retryable() ? StepError.of(failure.code(), failure.getMessage())
                    : StepError.permanent(failure.code(), failure.getMessage()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Failed(StepError.of(WORKER_ERROR, "The worker was interrupted"));
        } catch (Exception e) {
            return new Failed(StepError.of(WORKER_ERROR, messageOf(e)));
        } catch (Throwable e) {
            LoggerFactory.getLogger(StepOutcome.class).error("The handler of step {} of instance {} (run '{}'), attempt {}, threw {}; "
                    + "reporting the attempt failed with {}", step.stepId(), step.instanceId(), step.run(), step.attempt(),
                    e.getClass().getName(), WORKER_ERROR, e);
            return new Failed(StepError.of(WORKER_ERROR, messageOf(e)));
        }
    }

    static String messageOf(Throwable e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
