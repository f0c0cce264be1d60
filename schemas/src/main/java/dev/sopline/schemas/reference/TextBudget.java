package dev.sopline.schemas.reference;

/**
 * How much text evaluating references may still copy, counted before each copy is made. A definition can name one
 * value thousands of times ({@code "${inputs.note} ${inputs.note} ..."}), and the value can be as large as an
 * instance's data: without a bound, one start built gigabytes of text before any size check could see it. One
 * budget spans everything evaluated for one purpose (a step's inputs, a step's outputs, an instance's outputs).
 */
public final class TextBudget {

    /** More than any record the engine writes can hold, so no evaluation that could be kept is refused. */
    public static final long MAX_CHARS = 1024 * 1024;

    private long left = MAX_CHARS;

    /** Counts {@code chars} about to be copied. @throws EvaluationTooLarge once the budget is passed */
    void spend(long chars) {
        left -= chars;
        if (left < 0) {
            throw new EvaluationTooLarge("Expected the references of a definition to evaluate to at most %d characters, but they give more"
                    .formatted(MAX_CHARS));
        }
    }
}
