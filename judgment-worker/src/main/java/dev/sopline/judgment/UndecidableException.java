package dev.sopline.judgment;

/** The agent could not give a usable answer; the step is escalated to a person with this reason. */
public class UndecidableException extends Exception {

    public UndecidableException(String message) {
        super(message);
    }

    public UndecidableException(String message, Throwable cause) {
        super(message, cause);
    }
}
