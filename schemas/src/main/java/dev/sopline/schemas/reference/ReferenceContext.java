package dev.sopline.schemas.reference;

import java.util.List;
import java.util.Map;

/**
 * The values references read: start inputs, completed steps' outputs, and the trigger and callback bodies. Values are
 * JSON-like Java values: maps, lists, strings, numbers, booleans and null.
 *
 * @param inputs the instance's inputs
 * @param stepOutputs outputs by step id
 * @param triggerPayload the trigger call's body, or null
 * @param callbackPayload the webhook callback's body, or null
 */
public record ReferenceContext(
        Map<String, Object> inputs, Map<String, Map<String, Object>> stepOutputs, Object triggerPayload, Object callbackPayload) {

    public ReferenceContext {
        inputs = inputs == null ? Map.of() : inputs;
        stepOutputs = stepOutputs == null ? Map.of() : stepOutputs;
    }

    public static ReferenceContext empty() {
        return new ReferenceContext(Map.of(), Map.of(), null, null);
    }

    public ReferenceContext withCallbackPayload(Object payload) {
        return new ReferenceContext(inputs, stepOutputs, triggerPayload, payload);
    }

    /** The referenced value, or null when any part of the path is missing. */
    public Object lookup(Reference reference) {
        Object start = switch (reference.root()) {
            case INPUTS -> inputs;
            case STEPS -> stepOutputs.get(reference.stepId());
            case TRIGGER_PAYLOAD -> triggerPayload;
            case CALLBACK_PAYLOAD -> callbackPayload;
        };
        Object current = start;
        for (String name : reference.path()) {
            current = child(current, name);
            if (current == null) {
                return null;
            }
        }
        return current;
    }

    private static Object child(Object value, String name) {
        if (value instanceof Map<?, ?> map) {
            return map.get(name);
        }
        if (value instanceof List<?> list && name.chars().allMatch(Character::isDigit) && name.length() < 10) {
            int index = Integer.parseInt(name);
            return index < list.size() ? list.get(index) : null;
        }
        return null;
    }
}
