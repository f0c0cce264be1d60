package dev.sopline.worker;

/** Thrown by a {@link StepHandler} to fail a step attempt with a business error code, such as {@code card_declined}. */
public class StepFailure extends RuntimeException {

    private final String code;

    public StepFailure(String code, String message) {
        super(message);
        this.code = code;
    }

    /** The error code reported to the engine and shown on the step. */
    public String code() {
        return code;
    }
}
