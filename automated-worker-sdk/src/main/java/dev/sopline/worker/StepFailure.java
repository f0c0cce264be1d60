package dev.sopline.worker;

/**
 * Thrown by a {@link StepHandler} to fail a step attempt with a business error code, such as {@code upstream_busy}.
 * The engine retries the step by its policy; {@link #permanent} says that retrying cannot help.
 */
public class StepFailure extends RuntimeException {

    private final String code;
    private final boolean retryable;

    public StepFailure(String code, String message) {
        this(code, message, true);
    }

    private StepFailure(String code, String message, boolean retryable) {
        super(message);
        this.code = code;
        this.retryable = retryable;
    }

    /**
     * A failure that another attempt would meet again, such as {@code card_declined}: the step fails at once, after
     * this one attempt, whatever its retry policy.
     */
    public static StepFailure permanent(String code, String message) {
        return new StepFailure(code, message, false);
    }

    /** The error code reported to the engine and shown on the step. */
    public String code() {
        return code;
    }

    /** False when the engine must not retry the step. */
    public boolean retryable() {
        return retryable;
    }
}
