package dev.sopline.schemas.instance;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.Optional;

/** State of one step of an instance; {@code pending} means not reached yet. */
public enum StepState {
    PENDING("pending"),
    ACTIVE("active"),
    COMPLETED("completed"),
    FAILED("failed"),
    CANCELLED("cancelled");

    private final String wireName;

    StepState(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }

    public static Optional<StepState> fromWireName(String name) {
        return Arrays.stream(values()).filter(state -> state.wireName.equals(name)).findFirst();
    }

    @Override
    public String toString() {
        return wireName;
    }
}
