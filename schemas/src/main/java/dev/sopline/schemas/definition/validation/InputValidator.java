package dev.sopline.schemas.definition.validation;

import dev.sopline.schemas.definition.InputDeclaration;
import dev.sopline.schemas.validation.Violation;
import dev.sopline.schemas.validation.ViolationCode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Checks an instance's start inputs against the process's declarations: required inputs present, types and enum
 * values respected, no undeclared names. The details of {@code invalid_inputs}.
 */
public final class InputValidator {

    private InputValidator() {}

    public static List<Violation> validate(List<InputDeclaration> declarations, Map<String, Object> inputs) {
        List<Violation> violations = new ArrayList<>();
        for (InputDeclaration declaration : declarations) {
            if (declaration.name() == null) {
                continue;
            }
            String field = "inputs." + declaration.name();
            Object value = inputs.get(declaration.name());
            if (value == null) {
                if (declaration.required()) {
                    violations.add(Violation.of(field, ViolationCode.REQUIRED, "Expected input '%s' to be present".formatted(declaration.name())));
                }
                continue;
            }
            FieldValueChecks.check(field, declaration.type(), declaration.values(), value).ifPresent(violations::add);
        }
        for (String name : inputs.keySet()) {
            if (declarations.stream().noneMatch(declaration -> name.equals(declaration.name()))) {
                violations.add(Violation.of("inputs." + name, ViolationCode.UNKNOWN_FIELD,
                        "Expected only declared inputs %s, but got '%s'".formatted(declarations.stream().map(InputDeclaration::name).toList(), name)));
            }
        }
        return violations;
    }
}
