package dev.sopline.worker;

import dev.sopline.schemas.instance.StepError;
import java.util.Map;

/** What running a handler gave: outputs, or the error that failed the attempt. */
sealed interface StepOutcome {

    String WORKER_ERROR = "worker_error";

    record Completed(Map<String, Object> outputs) implements StepOutcome {}

    record Failed(StepError error) implements StepOutcome {}

    /** Runs the handler; a failure becomes an error code and message, never a stack trace. */
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
            String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            return new Failed(StepError.of(WORKER_ERROR, message));
        }
    }
}
