package dev.sopline.judgment;

/**
 * The agent could not give a usable answer; the step is escalated to a person with this reason. When a model was
 * asked, {@link #promptSha256()} names the prompt it read.
 */
public class UndecidableException extends Exception {

    private final String promptSha256;

    public UndecidableException(String message) {
        this(message, (String) null);
    }

    public UndecidableException(String message, String promptSha256) {
        super(message);
        this.promptSha256 = promptSha256;
    }

    public UndecidableException(String message, String promptSha256, Throwable cause) {
        super(message, cause);
        this.promptSha256 = promptSha256;
    }

    /** SHA-256 of the prompt the model read, or null when none was sent. */
    public String promptSha256() {
        return promptSha256;
    }
}
