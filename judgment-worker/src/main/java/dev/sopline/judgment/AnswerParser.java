package dev.sopline.judgment;

import dev.sopline.schemas.definition.OutputDeclaration;
import dev.sopline.schemas.definition.validation.OutputValidator;
import dev.sopline.schemas.json.Json;
import dev.sopline.schemas.validation.Violation;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectReader;

/**
 * Reads a chat model's answer: one JSON object with {@code outputs}, {@code confidence} and {@code rationale}, each
 * key once, possibly wrapped in a Markdown code fence, whose outputs fit the step's declarations (every required
 * output, of its type, enum values among the allowed ones, nothing else). Anything else is undecidable, with a reason
 * the model can be given when it is asked again.
 */
final class AnswerParser {

    static final int MOST_DESCRIBED_CHARS = 1_000;
    /**
     * A key given twice is refused, not read as its last value: {@code "confidence": 0.2, ..., "confidence": 0.99}
     * could otherwise say two things, the second perhaps planted by a case's text.
     */
    private static final ObjectReader STRICT = Json.mapper().reader().with(StreamReadFeature.STRICT_DUPLICATE_DETECTION);

    private AnswerParser() {}

    @SuppressWarnings("unchecked")
    static AgentAnswer parse(String text, List<OutputDeclaration> declared, String model, String promptSha256) throws UndecidableException {
        if (text == null || text.isBlank()) {
            throw new UndecidableException("the answer was empty", promptSha256);
        }
        int start = text.indexOf('{');
        int end = text.lastIndexOf('}');
        if (start < 0 || end <= start) {
            throw new UndecidableException("the answer held no JSON object", promptSha256);
        }
        JsonNode answer;
        try {
            answer = STRICT.readTree(text.substring(start, end + 1));
        } catch (JacksonException e) {
            throw new UndecidableException("the answer was not valid JSON with each key once", promptSha256);
        }
        JsonNode outputs = answer.path("outputs");
        JsonNode confidence = answer.path("confidence");
        if (!outputs.isObject()) {
            throw new UndecidableException("the answer had no 'outputs' object", promptSha256);
        }
        if (!confidence.isNumber() || confidence.asDouble() < 0 || confidence.asDouble() > 1) {
            throw new UndecidableException("the answer had no confidence between 0 and 1", promptSha256);
        }
        Map<String, Object> values = Json.mapper().convertValue(outputs, LinkedHashMap.class);
        List<Violation> violations = OutputValidator.validate(declared, values);
        if (!violations.isEmpty()) {
            throw new UndecidableException("the outputs did not fit the step: " + describe(violations), promptSha256);
        }
        return new AgentAnswer(values, confidence.asDouble(), answer.path("rationale").asString(""), model, promptSha256);
    }

    /**
     * The violations, as many as fit in {@link #MOST_DESCRIBED_CHARS}: an answer with a thousand undeclared outputs
     * makes a short reason, for the re-ask and for the person who decides.
     */
    static String describe(List<Violation> violations) {
        StringBuilder described = new StringBuilder();
        int shown = 0;
        for (Violation violation : violations) {
            String one = violation.field() + ": " + violation.message();
            if (shown > 0 && described.length() + 2 + one.length() > MOST_DESCRIBED_CHARS) {
                break;
            }
            described.append(shown > 0 ? "; " : "").append(one.length() > MOST_DESCRIBED_CHARS ? one.substring(0, MOST_DESCRIBED_CHARS) + "…" : one);
            shown++;
        }
        if (shown < violations.size()) {
            described.append("; and ").append(violations.size() - shown).append(" more");
        }
        return described.toString();
    }

}
