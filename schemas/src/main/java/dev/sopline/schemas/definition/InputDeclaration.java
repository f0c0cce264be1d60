package dev.sopline.schemas.definition;

import java.util.List;

/**
 * A declared instance input.
 *
 * @param name input name, the key in the start request's {@code inputs}
 * @param type value type
 * @param required whether a start request must carry it
 * @param values allowed values of an {@code enum}; empty for other types
 * @param description optional help text shown in forms
 */
public record InputDeclaration(String name, FieldType type, boolean required, List<String> values, String description) {

    public InputDeclaration {
        values = values == null ? List.of() : List.copyOf(values);
    }
}
