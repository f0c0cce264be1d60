package dev.sopline.schemas.instance;

import com.fasterxml.jackson.annotation.JsonValue;

/** Who is expected to resolve an active step. */
public enum Assignee {
    AGENT("agent"),
    HUMAN("human"),
    WORKER("worker"),
    THIRD_PARTY("third_party");

    private final String wireName;

    Assignee(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }

    @Override
    public String toString() {
        return wireName;
    }
}
