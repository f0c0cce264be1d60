package dev.sopline.schemas.definition;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Type of a declared input or output. The interface names {@code string} and {@code enum}; the numeric and
 * boolean types are added because procedures carry amounts and flags, and a string for every such value would
 * push parsing into every worker.
 */
public enum FieldType {
    STRING("string"),
    ENUM("enum"),
    NUMBER("number"),
    INTEGER("integer"),
    BOOLEAN("boolean");

    private final String wireName;

    FieldType(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }

    public static Optional<FieldType> fromWireName(String name) {
        return Arrays.stream(values()).filter(type -> type.wireName.equals(name)).findFirst();
    }

    public static List<String> wireNames() {
        return Arrays.stream(values()).map(FieldType::wireName).toList();
    }

    @Override
    public String toString() {
        return wireName;
    }
}
