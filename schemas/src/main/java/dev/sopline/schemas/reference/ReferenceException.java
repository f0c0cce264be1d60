package dev.sopline.schemas.reference;

/** A {@code ${...}} expression that cannot be read; {@link #code()} is the validation code to report. */
public final class ReferenceException extends RuntimeException {

    private final String code;

    public ReferenceException(String code, String message) {
        super(message);
        this.code = code;
    }

    public String code() {
        return code;
    }
}
