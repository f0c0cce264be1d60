package dev.sopline.engine.api.query;

/**
 * The engine cannot answer this read now: the stores that hold it are moving between replicas, being restored or
 * closing, or no replica holding a copy answered. The gateway answers 503 and the client may retry.
 */
public class StateUnavailableException extends RuntimeException {

    public StateUnavailableException(String message) {
        super(message);
    }

    public StateUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
