package dev.sopline.schemas.definition.validation;

import dev.sopline.schemas.validation.Violation;
import dev.sopline.schemas.validation.ViolationCode;
import java.util.ArrayList;
import java.util.List;

/**
 * The details of one {@code invalid_inputs} or {@code invalid_outputs} answer, at most {@link #MAX} of them. A body of
 * 1 MiB can hold a hundred thousand names nobody declared; one detail each made a reply over the broker's limit,
 * which the engine drops, so the client waited for an answer that never came.
 */
final class BoundedViolations {

    static final int MAX = 100;
    /** Longest name or value quoted back, so one name of 50,000 characters is not copied into the answer. */
    private static final int MAX_QUOTED_CHARS = 100;

    private final String field;
    private final List<Violation> violations = new ArrayList<>();
    private boolean more;

    /** @param field what was checked, {@code inputs} or {@code outputs}: the field of the last detail when some are left out */
    BoundedViolations(String field) {
        this.field = field;
    }

    void add(Violation violation) {
        if (isFull()) {
            more = true;
        } else {
            violations.add(violation);
        }
    }

    /** Whether a violation was left out: a caller can stop looking for more. */
    boolean isCut() {
        return more;
    }

    private boolean isFull() {
        return violations.size() >= MAX - 1;
    }

    List<Violation> list() {
        if (!more) {
            return violations;
        }
        List<Violation> cut = new ArrayList<>(violations);
        cut.add(Violation.of(field, ViolationCode.LIMIT_REACHED,
                "Expected at most %d problems to list, but there are more: correct these and send again".formatted(MAX - 1)));
        return cut;
    }

    static String quoted(Object value) {
        String text = String.valueOf(value);
        return text.length() <= MAX_QUOTED_CHARS ? text : text.substring(0, MAX_QUOTED_CHARS) + "...";
    }

    /** The names for a message: the first ten, then how many more. */
    static String names(List<String> names) {
        return names.size() <= 10 ? names.toString()
                : names.subList(0, 10).toString().replace("]", ", and %d more]".formatted(names.size() - 10));
    }
}
