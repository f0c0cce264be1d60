package dev.sopline.schemas.instance;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.Optional;

/**
 * State of an instance. {@code running} while the engine or a machine works on it, {@code waiting} while its
 * active step waits on a person or a third party.
 */
public enum InstanceState {
    PENDING("pending"),
    RUNNING("running"),
    WAITING("waiting"),
    COMPLETED("completed"),
    FAILED("failed"),
    CANCELLED("cancelled");

    private final String wireName;

    InstanceState(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }

    public boolean isTerminal() {
        return this == COMPLETED || this == FAILED || this == CANCELLED;
    }

    public static Optional<InstanceState> fromWireName(String name) {
        return Arrays.stream(values()).filter(state -> state.wireName.equals(name)).findFirst();
    }

    @Override
    public String toString() {
        return wireName;
    }
}
