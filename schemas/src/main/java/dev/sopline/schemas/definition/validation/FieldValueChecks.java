package dev.sopline.schemas.definition.validation;

import dev.sopline.schemas.definition.FieldType;
import dev.sopline.schemas.validation.Violation;
import dev.sopline.schemas.validation.ViolationCode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Optional;

/** Whether one value fits a declared type; shared by instance inputs and step outputs. */
final class FieldValueChecks {

    private FieldValueChecks() {}

    static Optional<Violation> check(String field, FieldType type, List<String> allowed, Object value) {
        boolean fits = switch (type) {
            case STRING, ENUM -> value instanceof String;
            // JSON has no infinity: 1e400 parses as one, and no step or template could use it.
            case NUMBER -> value instanceof Number number && isFinite(number);
            case INTEGER -> isWholeNumber(value);
            case BOOLEAN -> value instanceof Boolean;
        };
        if (!fits) {
            return Optional.of(Violation.of(field, ViolationCode.INVALID_TYPE,
                    "Expected %s, but got %s".formatted(article(type), describe(value))));
        }
        if (type == FieldType.ENUM && !allowed.contains(value)) {
            return Optional.of(Violation.notInEnum(field, BoundedViolations.quoted(value), allowed));
        }
        return Optional.empty();
    }

    private static boolean isWholeNumber(Object value) {
        if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof BigInteger) {
            return true;
        }
        if (value instanceof BigDecimal decimal) {
            return decimal.stripTrailingZeros().scale() <= 0;
        }
        return value instanceof Number number && number.doubleValue() == Math.rint(number.doubleValue())
                && !Double.isInfinite(number.doubleValue());
    }

    private static String article(FieldType type) {
        return switch (type) {
            case STRING -> "text";
            case ENUM -> "one of the allowed values";
            case NUMBER -> "a number";
            case INTEGER -> "a whole number";
            case BOOLEAN -> "true or false";
        };
    }

    private static boolean isFinite(Number number) {
        return !(number instanceof Double || number instanceof Float) || Double.isFinite(number.doubleValue());
    }

    private static String describe(Object value) {
        if (value == null) {
            return "null";
        }
        if (value instanceof String) {
            return "text";
        }
        if (value instanceof Number) {
            return "a number";
        }
        if (value instanceof Boolean) {
            return "a boolean";
        }
        if (value instanceof List<?>) {
            return "a list";
        }
        return "an object";
    }
}
