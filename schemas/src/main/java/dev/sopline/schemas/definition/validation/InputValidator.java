package dev.sopline.schemas.definition.validation;

import dev.sopline.schemas.definition.InputDeclaration;
import dev.sopline.schemas.validation.Violation;
import dev.sopline.schemas.validation.ViolationCode;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Checks an instance's start inputs against the process's declarations: required inputs present, types and enum
 * values respected, no undeclared names. The details of {@code invalid_inputs}, at most {@link BoundedViolations#MAX}.
 */
public final class InputValidator {

    private InputValidator() {}

    public static List<Violation> validate(List<InputDeclaration> declarations, Map<String, Object> inputs) {
        BoundedViolations violations = new BoundedViolations("inputs");
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
        List<String> names = declarations.stream().map(InputDeclaration::name).filter(Objects::nonNull).toList();
        Set<String> declared = new HashSet<>(names);
        for (String name : inputs.keySet()) {
            if (!declared.contains(name)) {
                violations.add(Violation.of("inputs." + BoundedViolations.quoted(name), ViolationCode.UNKNOWN_FIELD,
                        "Expected only declared inputs %s, but got '%s'".formatted(BoundedViolations.names(names), BoundedViolations.quoted(name))));
            }
            if (violations.isCut()) {
                break;
            }
        }
        return violations.list();
    }
}
