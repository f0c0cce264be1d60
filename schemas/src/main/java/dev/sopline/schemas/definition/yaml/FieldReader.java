package dev.sopline.schemas.definition.yaml;

import dev.sopline.schemas.validation.Violation;
import dev.sopline.schemas.validation.ViolationCode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Typed access to the values of a {@link YamlDocument} that records a violation, with its place in the file, for
 * every value that is missing or of the wrong type, so that one pass reports every problem.
 */
final class FieldReader {

    private final YamlDocument document;
    private final List<Violation> violations = new ArrayList<>();

    FieldReader(YamlDocument document) {
        this.document = document;
    }

    List<Violation> violations() {
        return violations;
    }

    void report(String path, String code, String message) {
        violations.add(Violation.of(path, code, message).at(document.positionOf(path).orElse(null)));
    }

    void report(Violation violation) {
        violations.add(violation.line() != null ? violation : violation.at(document.positionOf(violation.field()).orElse(null)));
    }

    static String child(String path, String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    static String item(String path, int index) {
        return path + "[" + index + "]";
    }

    /** The value as a map; a missing required map or a value of another type is reported. */
    @SuppressWarnings("unchecked")
    Optional<Map<String, Object>> map(Object value, String path, boolean required) {
        if (value == null) {
            if (required) {
                report(path, ViolationCode.REQUIRED, "Expected '%s' to be present".formatted(path));
            }
            return Optional.empty();
        }
        if (value instanceof Map<?, ?> map) {
            return Optional.of((Map<String, Object>) map);
        }
        report(path, ViolationCode.INVALID_TYPE, "Expected '%s' to be a mapping, but it is %s".formatted(path, describe(value)));
        return Optional.empty();
    }

    /** The value as a list; a missing required list or a value of another type is reported. */
    @SuppressWarnings("unchecked")
    Optional<List<Object>> list(Object value, String path, boolean required) {
        if (value == null) {
            if (required) {
                report(path, ViolationCode.REQUIRED, "Expected '%s' to be present".formatted(path));
            }
            return Optional.empty();
        }
        if (value instanceof List<?> list) {
            return Optional.of((List<Object>) list);
        }
        report(path, ViolationCode.INVALID_TYPE, "Expected '%s' to be a list, but it is %s".formatted(path, describe(value)));
        return Optional.empty();
    }

    /** Text field; numbers and booleans keep their source text, since people rarely quote {@code version: 1.0}. */
    String string(Map<String, Object> map, String path, String key, boolean required) {
        String fieldPath = child(path, key);
        Object value = map.get(key);
        if (value == null) {
            if (required) {
                report(fieldPath, ViolationCode.REQUIRED, "Expected '%s' to be present".formatted(fieldPath));
            }
            return null;
        }
        if (value instanceof String text) {
            if (required && text.isBlank()) {
                report(fieldPath, ViolationCode.REQUIRED, "Expected '%s' to be a non-empty text".formatted(fieldPath));
                return null;
            }
            return text;
        }
        if (value instanceof Number || value instanceof Boolean) {
            String source = document.scalarText(fieldPath);
            return source != null ? source : String.valueOf(value);
        }
        report(fieldPath, ViolationCode.INVALID_TYPE, "Expected '%s' to be text, but it is %s".formatted(fieldPath, describe(value)));
        return null;
    }

    Boolean bool(Map<String, Object> map, String path, String key) {
        Object value = map.get(key);
        if (value == null || value instanceof Boolean) {
            return (Boolean) value;
        }
        String fieldPath = child(path, key);
        report(fieldPath, ViolationCode.INVALID_TYPE, "Expected '%s' to be true or false, but it is %s".formatted(fieldPath, describe(value)));
        return null;
    }

    Number number(Map<String, Object> map, String path, String key) {
        Object value = map.get(key);
        if (value == null || value instanceof Number) {
            return (Number) value;
        }
        String fieldPath = child(path, key);
        report(fieldPath, ViolationCode.INVALID_TYPE, "Expected '%s' to be a number, but it is %s".formatted(fieldPath, describe(value)));
        return null;
    }

    /** Text that must be one of {@code allowed}; reports {@code not_in_enum} with the allowed values. */
    <E> E oneOf(Map<String, Object> map, String path, String key, boolean required, List<String> allowed, Function<String, Optional<E>> lookup) {
        String text = string(map, path, key, required);
        if (text == null) {
            return null;
        }
        Optional<E> found = lookup.apply(text);
        if (found.isEmpty()) {
            String fieldPath = child(path, key);
            report(Violation.notInEnum(fieldPath, text, allowed).at(document.positionOf(fieldPath).orElse(null)));
        }
        return found.orElse(null);
    }

    /** Reports every key of {@code map} that is not in {@code known}. */
    void rejectUnknownKeys(Map<String, Object> map, String path, Set<String> known) {
        for (String key : map.keySet()) {
            if (!known.contains(key)) {
                String fieldPath = child(path, key);
                report(fieldPath, ViolationCode.UNKNOWN_FIELD,
                        "Expected one of the fields %s, but found '%s'".formatted(known.stream().sorted().toList(), key));
            }
        }
    }

    static String describe(Object value) {
        if (value instanceof Map<?, ?>) {
            return "a mapping";
        }
        if (value instanceof List<?>) {
            return "a list";
        }
        if (value instanceof String) {
            return "text";
        }
        if (value instanceof Boolean) {
            return "a boolean";
        }
        if (value instanceof Number) {
            return "a number";
        }
        return "empty";
    }
}
