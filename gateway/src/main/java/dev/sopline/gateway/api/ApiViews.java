package dev.sopline.gateway.api;

import dev.sopline.schemas.instance.InstanceView;
import dev.sopline.schemas.instance.PendingStep;
import dev.sopline.schemas.instance.StepView;
import dev.sopline.schemas.json.Json;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The engine's views as the API shows them: a webhook step's callback id becomes its {@code callback_url}, and the
 * workspace, implied by the token, is left out. {@code baseUrl} is {@link RequestScope#callbackBase}: null for a caller
 * who may not resolve steps, who is shown no {@code callback_url} at all.
 */
public final class ApiViews {

    private ApiViews() {}

    /** One conversion of the whole view: converting each step again, as well, would serialize every step twice per read. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> instance(InstanceView view, String baseUrl) {
        return (Map<String, Object>) instanceBody(asMap(view), baseUrl);
    }

    /** The instance-list entry: id, process, version, state and times. */
    public static Map<String, Object> summary(InstanceView view) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("id", view.id());
        body.put("process", view.process());
        body.put("version", view.version());
        body.put("state", view.state().wireName());
        body.put("started_at", view.startedAt().toString());
        if (view.completedAt() != null) {
            body.put("completed_at", view.completedAt().toString());
        }
        return body;
    }

    public static Map<String, Object> step(StepView view, String baseUrl) {
        return withCallbackUrl(asMap(view), baseUrl);
    }

    public static Map<String, Object> pending(PendingStep step, String baseUrl) {
        return withCallbackUrl(asMap(step), baseUrl);
    }

    /** A step body that came back in a command reply, already a map. */
    public static Object stepBody(Object body, String baseUrl) {
        if (body instanceof Map<?, ?> map) {
            @SuppressWarnings("unchecked")
            Map<String, Object> copy = new LinkedHashMap<>((Map<String, Object>) map);
            return withCallbackUrl(copy, baseUrl);
        }
        return body;
    }

    /** An instance body that came back in a command reply. */
    @SuppressWarnings("unchecked")
    public static Object instanceBody(Object body, String baseUrl) {
        if (body instanceof Map<?, ?> map) {
            Map<String, Object> copy = new LinkedHashMap<>((Map<String, Object>) map);
            copy.remove("workspace");
            if (copy.get("steps") instanceof List<?> steps) {
                copy.put("steps", steps.stream().map(step -> stepBody(step, baseUrl)).toList());
            }
            return copy;
        }
        return body;
    }

    private static Map<String, Object> withCallbackUrl(Map<String, Object> body, String baseUrl) {
        Object callbackId = body.remove("callback_id");
        if (callbackId != null && baseUrl != null) {
            body.put("callback_url", baseUrl + "/sop/webhooks/" + callbackId);
        }
        return body;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asMap(Object value) {
        return Json.mapper().convertValue(value, LinkedHashMap.class);
    }
}
