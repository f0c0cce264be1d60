package dev.sopline.schemas.definition;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How instances start.
 *
 * @param type api, schedule or webhook
 * @param cron for schedule triggers: 5-field cron or a macro such as {@code @daily}
 * @param timezone for schedule triggers: IANA zone the cron is read in, {@code UTC} when absent
 * @param inputs for schedule triggers: the inputs each fired instance starts with
 * @param auth for webhook triggers: how the inbound call is signed
 */
public record Trigger(TriggerType type, String cron, String timezone, Map<String, Object> inputs, TriggerAuth auth) {

    public static final Trigger API = new Trigger(TriggerType.API, null, null, Map.of(), null);

    public Trigger {
        inputs = inputs == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(inputs));
    }

    public String timezoneOrDefault() {
        return timezone == null ? "UTC" : timezone;
    }
}
