package dev.sopline.judgment;

import dev.sopline.schemas.json.Json;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * Reads a chat model's answer: one JSON object with {@code outputs}, {@code confidence} and {@code rationale},
 * possibly wrapped in a Markdown code fence. Anything else is undecidable and goes to a person; whether the outputs fit
 * the step is for the engine to check, and it escalates those that do not.
 */
final class AnswerParser {

    private AnswerParser() {}

    @SuppressWarnings("unchecked")
    static AgentAnswer parse(String text, String model) throws UndecidableException {
        if (text == null || text.isBlank()) {
            throw new UndecidableException("The model gave an empty answer");
        }
        int start = text.indexOf('{');
        int end = text.lastIndexOf('}');
        if (start < 0 || end <= start) {
            throw new UndecidableException("The model's answer holds no JSON object");
        }
        JsonNode answer;
        try {
            answer = Json.mapper().readTree(text.substring(start, end + 1));
        } catch (JacksonException e) {
            throw new UndecidableException("The model's answer is not valid JSON");
        }
        JsonNode outputs = answer.path("outputs");
        JsonNode confidence = answer.path("confidence");
        if (!outputs.isObject()) {
            throw new UndecidableException("The model's answer has no 'outputs' object");
        }
        if (!confidence.isNumber() || confidence.asDouble() < 0 || confidence.asDouble() > 1) {
            throw new UndecidableException("The model's answer has no confidence between 0 and 1");
        }
        Map<String, Object> values = Json.mapper().convertValue(outputs, LinkedHashMap.class);
        return new AgentAnswer(values, confidence.asDouble(), answer.path("rationale").asString(""), model);
    }
}
