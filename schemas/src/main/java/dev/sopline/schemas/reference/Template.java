package dev.sopline.schemas.reference;

import dev.sopline.schemas.json.Json;
import dev.sopline.schemas.validation.ViolationCode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A text that may hold {@code ${...}} references. A text that is exactly one reference evaluates to the referenced
 * value with its JSON type; references inside longer text are interpolated as text. Written by hand because the
 * grammar is two tokens and the errors must name the offending text.
 */
public final class Template {

    private final String text;
    private final List<Object> parts;

    private Template(String text, List<Object> parts) {
        this.text = text;
        this.parts = List.copyOf(parts);
    }

    public static Template parse(String text) {
        List<Object> parts = new ArrayList<>();
        int position = 0;
        while (position < text.length()) {
            int open = text.indexOf("${", position);
            if (open < 0) {
                parts.add(text.substring(position));
                break;
            }
            if (open > position) {
                parts.add(text.substring(position, open));
            }
            int close = text.indexOf('}', open + 2);
            if (close < 0) {
                throw new ReferenceException(ViolationCode.INVALID_REFERENCE,
                        "Expected '}' to close the reference in '%s', but the text ends first".formatted(text));
            }
            parts.add(Reference.parse(text.substring(open + 2, close)));
            position = close + 1;
        }
        return new Template(text, parts);
    }

    public List<Reference> references() {
        return parts.stream().filter(Reference.class::isInstance).map(Reference.class::cast).toList();
    }

    public boolean hasReferences() {
        return parts.stream().anyMatch(Reference.class::isInstance);
    }

    public boolean isWholeReference() {
        return parts.size() == 1 && parts.get(0) instanceof Reference;
    }

    /** @throws EvaluationTooLarge when the references copy more than {@link TextBudget#MAX_CHARS} characters */
    public Object evaluate(ReferenceContext context) {
        return evaluate(context, new TextBudget());
    }

    Object evaluate(ReferenceContext context, TextBudget budget) {
        if (isWholeReference()) {
            Object value = context.lookup((Reference) parts.get(0));
            // Not copied here, but written out once per reference in every record and event that holds it.
            budget.spend(value instanceof String string ? string.length() : asText(value).length());
            return value;
        }
        if (!hasReferences()) {
            return text;
        }
        StringBuilder result = new StringBuilder();
        for (Object part : parts) {
            String piece = part instanceof Reference reference ? asText(context.lookup(reference)) : (String) part;
            budget.spend(piece.length());
            result.append(piece);
        }
        return result.toString();
    }

    static String asText(Object value) {
        if (value == null) {
            return "";
        }
        if (value instanceof String string) {
            return string;
        }
        if ((value instanceof Double || value instanceof Float) && !Double.isFinite(((Number) value).doubleValue())) {
            return value.toString(); // 1e400 in a JSON body reads as Infinity, which BigDecimal cannot hold
        }
        if (value instanceof Double || value instanceof Float || value instanceof BigDecimal) {
            BigDecimal decimal = new BigDecimal(value.toString()).stripTrailingZeros();
            return decimal.scale() < 0 ? decimal.setScale(0).toPlainString() : decimal.toPlainString();
        }
        if (value instanceof Number || value instanceof Boolean) {
            return value.toString();
        }
        if (value instanceof Map<?, ?> || value instanceof List<?>) {
            return Json.mapper().writeValueAsString(value);
        }
        return value.toString();
    }

    @Override
    public String toString() {
        return text;
    }
}
