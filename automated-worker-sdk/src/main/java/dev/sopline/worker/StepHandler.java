package dev.sopline.worker;

import java.util.Map;

/**
 * The work behind one {@code run} reference of automated steps.
 *
 * <p>Return the step's outputs to complete the attempt. Throw {@link StepFailure} to fail the attempt with your own
 * error code; any other exception fails it with code {@code worker_error} and the exception's message. The engine
 * retries failed attempts with the step's backoff, and fails the instance after the last one.
 *
 * <p>A step may be handed to a worker more than once (a worker stopped before committing, a rebalance), always with
 * the same attempt number; the engine keeps the first result for an attempt and ignores the rest. Make side effects
 * idempotent per {@code instanceId + stepId + attempt} where repeating them would hurt.
 */
@FunctionalInterface
public interface StepHandler {

    /**
     * @param step the step attempt: its resolved inputs and where it belongs
     * @return the outputs, by declared output name
     * @throws Exception to fail the attempt
     */
    Map<String, Object> handle(StepContext step) throws Exception;
}
