package dev.sopline.worker;

import dev.sopline.schemas.json.Json;
import java.net.http.HttpResponse;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * The gateway's answer to a submit: its status and, for a refusal, the error code and message of its JSON body
 * (empty code when the body is not JSON, such as a proxy's page).
 */
record GatewayAnswer(int status, String code, String message) {

    private static final int EXCERPT_CHARS = 300;

    static GatewayAnswer of(HttpResponse<String> response) {
        if (response.statusCode() / 100 == 2) {
            return new GatewayAnswer(response.statusCode(), "", "");
        }
        try {
            JsonNode body = Json.mapper().readTree(response.body());
            return new GatewayAnswer(response.statusCode(), body.path("error").asString(""),
                    body.path("message").asString(excerpt(response.body())));
        } catch (JacksonException e) {
            return new GatewayAnswer(response.statusCode(), "", excerpt(response.body()));
        }
    }

    boolean taken() {
        return status / 100 == 2;
    }

    boolean refusedAs(int refusal, String errorCode) {
        return status == refusal && code.equals(errorCode);
    }

    /** A timeout or a server's failure, which the same request may pass later; 503 is the Retry-After's. */
    boolean worthRepeating() {
        return status == 408 || status >= 500;
    }

    /** The status and the error code, for a log line: {@code 422 invalid_outputs}, or {@code 502} alone. */
    String describe() {
        return code.isEmpty() ? String.valueOf(status) : status + " " + code;
    }

    /** The start of a body, for a log line: a proxy's error page is not logged whole. */
    static String excerpt(String body) {
        if (body == null) {
            return "";
        }
        String line = body.strip().replaceAll("\\s+", " ");
        return line.length() <= EXCERPT_CHARS ? line : line.substring(0, EXCERPT_CHARS) + "…";
    }
}
