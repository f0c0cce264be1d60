package dev.sopline.schemas.reference;

import dev.sopline.schemas.validation.ViolationCode;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

/**
 * One {@code ${...}} expression.
 *
 * @param expression the text inside the braces, trimmed
 * @param root where it reads from
 * @param stepId the step, for {@link ReferenceRoot#STEPS}; null otherwise
 * @param path the names after the root (after {@code outputs} for steps); a numeric name indexes a list
 */
public record Reference(String expression, ReferenceRoot root, String stepId, List<String> path) {

    private static final Pattern SEGMENT = Pattern.compile("[A-Za-z0-9_-]+");

    public Reference {
        path = List.copyOf(path);
    }

    /** The first name of the path: the input, output or payload field the reference names. */
    public String firstName() {
        return path.get(0);
    }

    /** Reads the text inside {@code ${...}}. */
    public static Reference parse(String expression) {
        String text = expression.trim();
        if (text.isEmpty()) {
            throw invalid("Expected a reference inside '${}', but it is empty");
        }
        List<String> segments = Arrays.asList(text.split("\\.", -1));
        for (String segment : segments) {
            if (!SEGMENT.matcher(segment).matches()) {
                throw invalid("Expected names of letters, digits, '_' and '-' separated by dots in '${%s}', but found '%s'"
                        .formatted(text, segment));
            }
        }
        String root = segments.get(0);
        return switch (root) {
            case "inputs" -> {
                requireLength(text, segments, 2, "inputs.<name>");
                yield new Reference(text, ReferenceRoot.INPUTS, null, segments.subList(1, segments.size()));
            }
            case "steps" -> {
                requireLength(text, segments, 4, "steps.<step_id>.outputs.<name>");
                if (!segments.get(2).equals("outputs")) {
                    throw invalid("Expected 'steps.<step_id>.outputs.<name>' in '${%s}', but found '%s' after the step id"
                            .formatted(text, segments.get(2)));
                }
                yield new Reference(text, ReferenceRoot.STEPS, segments.get(1), segments.subList(3, segments.size()));
            }
            case "trigger", "callback" -> {
                requireLength(text, segments, 3, root + ".payload.<field>");
                if (!segments.get(1).equals("payload")) {
                    throw invalid("Expected '%s.payload.<field>' in '${%s}', but found '%s'".formatted(root, text, segments.get(1)));
                }
                ReferenceRoot payloadRoot = root.equals("trigger") ? ReferenceRoot.TRIGGER_PAYLOAD : ReferenceRoot.CALLBACK_PAYLOAD;
                yield new Reference(text, payloadRoot, null, segments.subList(2, segments.size()));
            }
            default -> throw new ReferenceException(ViolationCode.UNKNOWN_REFERENCE,
                    "Expected a reference to start with inputs, steps, trigger or callback, but '${%s}' starts with '%s'"
                            .formatted(text, root));
        };
    }

    private static void requireLength(String text, List<String> segments, int minimum, String shape) {
        if (segments.size() < minimum) {
            throw invalid("Expected '%s' in '${%s}', but the path is incomplete".formatted(shape, text));
        }
    }

    private static ReferenceException invalid(String message) {
        return new ReferenceException(ViolationCode.INVALID_REFERENCE, message);
    }
}
