package dev.sopline.judgment;

import dev.sopline.schemas.json.Json;
import java.util.Collection;

/**
 * What a log may say of a failed model call: the exception's name and message, on one line and cut short, with the
 * API key and the texts sent to the model replaced. A provider's error can quote the request back; the prompt holds
 * the case's data, which has no place in a log.
 */
final class FailureMessages {

    static final int MOST_CHARS = 300;
    static final String HIDDEN = "[hidden]";
    /** Shorter texts are not replaced: a one-letter key or message would hide every such letter of the message. */
    private static final int SHORTEST_HIDDEN = 4;

    private FailureMessages() {}

    static String of(Throwable failure, Collection<String> hidden) {
        Throwable described = failure;
        while (described.getMessage() == null && described.getCause() != null) {
            described = described.getCause();
        }
        String message = described.getMessage() == null ? "" : described.getMessage();
        for (String text : hidden) {
            if (text != null && text.length() >= SHORTEST_HIDDEN) {
                String quoted = Json.mapper().writeValueAsString(text);
                message = message.replace(text, HIDDEN).replace(quoted.substring(1, quoted.length() - 1), HIDDEN);
            }
        }
        message = message.replaceAll("\\s+", " ").strip();
        if (message.length() > MOST_CHARS) {
            message = message.substring(0, MOST_CHARS) + "…";
        }
        String name = described.getClass().getSimpleName();
        return message.isEmpty() ? name : name + ": " + message;
    }
}
