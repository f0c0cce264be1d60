package dev.sopline.schemas.definition;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.util.List;

/**
 * A declared output of a step or of the whole process.
 *
 * @param name output name
 * @param type value type; {@code string} when the file declares none
 * @param values allowed values of an {@code enum}; empty for other types
 * @param value optional expression, possibly holding {@code ${...}} references; an output with a value is computed,
 *     not submitted
 * @param description optional help text shown in forms
 * @param label optional human name shown in forms instead of {@code name}
 * @param required whether a submit must carry this output; true unless the file says {@code required: false}. A
 *     {@code Boolean} so that a declaration read from JSON written before the field existed stays required.
 */
public record OutputDeclaration(
        String name, FieldType type, List<String> values, Object value, String description, String label, Boolean required) {

    public OutputDeclaration {
        values = values == null ? List.of() : List.copyOf(values);
        required = required == null || required;
    }

    /** A declaration that every submit must carry (unless computed), the default of process files. */
    public OutputDeclaration(String name, FieldType type, List<String> values, Object value, String description) {
        this(name, type, values, value, description, null, true);
    }

    @JsonIgnore
    public boolean isComputed() {
        return value != null;
    }
}
