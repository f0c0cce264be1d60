package dev.sopline.schemas.definition;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** How instances of a process start besides the API, which always works. */
public enum TriggerType {
    API("api"),
    SCHEDULE("schedule"),
    WEBHOOK("webhook");

    private final String wireName;

    TriggerType(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }

    public static Optional<TriggerType> fromWireName(String name) {
        return Arrays.stream(values()).filter(type -> type.wireName.equals(name)).findFirst();
    }

    public static List<String> wireNames() {
        return Arrays.stream(values()).map(TriggerType::wireName).toList();
    }

    @Override
    public String toString() {
        return wireName;
    }
}
