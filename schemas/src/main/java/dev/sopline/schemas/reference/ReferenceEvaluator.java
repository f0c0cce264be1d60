package dev.sopline.schemas.reference;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Evaluates and inspects the references in a nested value: every string in maps and lists is a template. */
public final class ReferenceEvaluator {

    private ReferenceEvaluator() {}

    /** @throws EvaluationTooLarge when the references copy more than {@link TextBudget#MAX_CHARS} characters */
    public static Object evaluate(Object value, ReferenceContext context) {
        return evaluate(value, context, new TextBudget());
    }

    /** As {@link #evaluate(Object, ReferenceContext)}, counting against a budget shared with other values. */
    public static Object evaluate(Object value, ReferenceContext context, TextBudget budget) {
        if (value instanceof String text) {
            return text.contains("${") ? Template.parse(text).evaluate(context, budget) : text;
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> result = new LinkedHashMap<>();
            map.forEach((key, item) -> result.put(String.valueOf(key), evaluate(item, context, budget)));
            return result;
        }
        if (value instanceof List<?> list) {
            List<Object> result = new ArrayList<>(list.size());
            list.forEach(item -> result.add(evaluate(item, context, budget)));
            return result;
        }
        return value;
    }

    /** Every reference in the value; throws on the first malformed one. */
    public static List<Reference> referencesIn(Object value) {
        List<Reference> found = new ArrayList<>();
        visitStrings(value, text -> found.addAll(Template.parse(text).references()));
        return found;
    }

    /** Every malformed reference in the value, for a validator that reports all problems at once. */
    public static List<ReferenceException> problemsIn(Object value) {
        List<ReferenceException> problems = new ArrayList<>();
        visitStrings(value, text -> {
            try {
                Template.parse(text);
            } catch (ReferenceException e) {
                problems.add(e);
            }
        });
        return problems;
    }

    private static void visitStrings(Object value, java.util.function.Consumer<String> visitor) {
        if (value instanceof String text) {
            visitor.accept(text);
        } else if (value instanceof Map<?, ?> map) {
            map.values().forEach(item -> visitStrings(item, visitor));
        } else if (value instanceof List<?> list) {
            list.forEach(item -> visitStrings(item, visitor));
        }
    }
}
