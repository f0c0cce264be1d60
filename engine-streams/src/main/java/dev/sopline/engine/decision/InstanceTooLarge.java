package dev.sopline.engine.decision;

/**
 * A decision would make an instance hold more data than its budget allows. Thrown out of the decision, so the
 * transition being built is dropped and the instance stays as it was; the command's handler decides the answer.
 */
public final class InstanceTooLarge extends RuntimeException {

    public InstanceTooLarge(String message) {
        super(message, null, false, false);
    }
}
