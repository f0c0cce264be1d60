package dev.sopline.judgment;

import dev.sopline.schemas.definition.OutputDeclaration;
import dev.sopline.schemas.definition.validation.OutputValidator;
import dev.sopline.schemas.json.Json;
import dev.sopline.schemas.validation.Violation;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * Reads a chat model's answer: one JSON object with {@code outputs}, {@code confidence} and {@code rationale},
 * possibly wrapped in a Markdown code fence, whose outputs fit the step's declarations (every required output, of its
 * type, enum values among the allowed ones, nothing else). Anything else is undecidable, with a reason the model can
 * be given when it is asked again.
 */
final class AnswerParser {

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
            answer = Json.mapper().readTree(text.substring(start, end + 1));
        } catch (JacksonException e) {
            throw new UndecidableException("the answer was not valid JSON", promptSha256);
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

    static String describe(List<Violation> violations) {
        return String.join("; ", violations.stream().map(violation -> violation.field() + ": " + violation.message()).toList());
    }
}
