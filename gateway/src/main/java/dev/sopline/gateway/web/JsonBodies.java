package dev.sopline.gateway.web;

import dev.sopline.schemas.command.ErrorCodes;
import dev.sopline.schemas.json.Json;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/** Reads JSON request bodies with the contract's errors: 413 over 1 MiB, 400 {@code invalid_payload} when unreadable. */
public final class JsonBodies {

    private JsonBodies() {}

    public static JsonNode parse(byte[] body) {
        if (body == null || body.length == 0) {
            throw new ApiException(400, ErrorCodes.INVALID_PAYLOAD, "Expected a JSON body, but the request has none");
        }
        if (body.length > RequestBodyFilter.MAX_JSON_BYTES) {
            throw new ApiException(413, ErrorCodes.PAYLOAD_TOO_LARGE, "Expected a body of at most 1 MiB");
        }
        try {
            return Json.mapper().readTree(body);
        } catch (JacksonException e) {
            throw new ApiException(400, ErrorCodes.INVALID_PAYLOAD, "Expected a JSON body, but it cannot be parsed");
        }
    }

    /** The body as an object, or 400 when it is another JSON value. */
    public static JsonNode object(byte[] body) {
        JsonNode node = parse(body);
        if (!node.isObject()) {
            throw new ApiException(400, ErrorCodes.INVALID_PAYLOAD, "Expected a JSON object as the body");
        }
        return node;
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> toMap(JsonNode node) {
        return Json.mapper().convertValue(node, LinkedHashMap.class);
    }

    public static Object toValue(JsonNode node) {
        return Json.mapper().convertValue(node, Object.class);
    }
}
