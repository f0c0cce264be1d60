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

    /** The longest code kept: codes are identifiers such as {@code card_declined}. */
    public static final int MAX_CODE_CHARS = 128;
    /** The longest message kept: a worker's text never fills an instance. */
    public static final int MAX_MESSAGE_CHARS = 4_096;

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

    /**
     * This error with its code and message cut to {@link #MAX_CODE_CHARS} and {@link #MAX_MESSAGE_CHARS} (an ellipsis
     * marks the cut). A worker writes both, and the engine keeps them on the step, on the instance and in its events,
     * outside the instance's data budget: unbounded, one error could make a record the broker refuses.
     */
    public StepError bounded() {
        String boundedCode = Texts.cut(code, MAX_CODE_CHARS);
        String boundedMessage = Texts.cut(message, MAX_MESSAGE_CHARS);
        return boundedCode == code && boundedMessage == message ? this : new StepError(stepId, boundedCode, boundedMessage, retryable);
    }
}
