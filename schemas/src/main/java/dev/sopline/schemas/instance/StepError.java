package dev.sopline.schemas.instance;

/**
 * Why a step attempt or an instance failed.
 *
 * @param stepId the step, on instance errors; null on a step's own error
 * @param code stable code, for example {@code step_timeout}, {@code callback_expired} or a worker's own code
 * @param message a sentence for people
 * @param retryable false when a worker says that trying again cannot help (a declined card): the step fails at once
 *     instead of being retried by its policy; null (absent) otherwise, so errors stored before it existed read the same
 */
public record StepError(String stepId, String code, String message, Boolean retryable) {

    public StepError(String stepId, String code, String message) {
        this(stepId, code, message, null);
    }

    public static StepError of(String code, String message) {
        return new StepError(null, code, message);
    }

    /** A worker's error that retrying cannot fix. */
    public static StepError permanent(String code, String message) {
        return new StepError(null, code, message, false);
    }

    /** Whether the step's retry policy applies; only a worker's explicit {@code retryable: false} says no. */
    public boolean allowsRetry() {
        return !Boolean.FALSE.equals(retryable);
    }

    public StepError forStep(String step) {
        return new StepError(step, code, message, retryable);
    }
}
