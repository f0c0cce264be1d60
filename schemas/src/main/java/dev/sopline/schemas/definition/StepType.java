package dev.sopline.schemas.definition;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** Who resolves a step: a person, an external worker, an agent (or a person), or a third party. */
public enum StepType {
    FORM("form"),
    AUTOMATED("automated"),
    JUDGMENT("judgment"),
    WEBHOOK("webhook");

    private final String wireName;

    StepType(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }

    public static Optional<StepType> fromWireName(String name) {
        return Arrays.stream(values()).filter(type -> type.wireName.equals(name)).findFirst();
    }

    public static List<String> wireNames() {
        return Arrays.stream(values()).map(StepType::wireName).toList();
    }

    @Override
    public String toString() {
        return wireName;
    }
}
