package dev.sopline.gateway.command;

/** The engine did not answer in time, or cannot be reached: the client gets 503 and may retry. */
public class EngineUnavailableException extends RuntimeException {

    public EngineUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
