package dev.sopline.schemas.reference;

/** Evaluating references would copy more text than a {@link TextBudget} allows. */
public final class EvaluationTooLarge extends RuntimeException {

    public EvaluationTooLarge(String message) {
        super(message, null, false, false);
    }
}
