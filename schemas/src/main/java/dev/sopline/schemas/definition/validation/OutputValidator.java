package dev.sopline.schemas.definition.validation;

import dev.sopline.schemas.definition.OutputDeclaration;
import dev.sopline.schemas.validation.Violation;
import dev.sopline.schemas.validation.ViolationCode;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Checks the outputs submitted for a step: every declared output without a {@code value} expression is required
 * unless declared {@code required: false}, types and enum values are respected, and nothing else may be submitted.
 * The details of {@code invalid_outputs}, at most {@link BoundedViolations#MAX}.
 */
public final class OutputValidator {

    private OutputValidator() {}

    public static List<Violation> validate(List<OutputDeclaration> declarations, Map<String, Object> outputs) {
        BoundedViolations violations = new BoundedViolations("outputs");
        for (OutputDeclaration declaration : declarations) {
            if (declaration.isComputed() || declaration.name() == null) {
                continue;
            }
            String field = "outputs." + declaration.name();
            Object value = outputs.get(declaration.name());
            if (value == null) {
                if (!declaration.required()) {
                    continue;
                }
                violations.add(Violation.of(field, ViolationCode.REQUIRED, "Expected output '%s' to be present".formatted(declaration.name())));
                continue;
            }
            FieldValueChecks.check(field, declaration.type(), declaration.values(), value).ifPresent(violations::add);
        }
        List<String> names = declarations.stream().filter(d -> !d.isComputed()).map(OutputDeclaration::name).filter(Objects::nonNull).toList();
        Set<String> submittable = new HashSet<>(names);
        for (String name : outputs.keySet()) {
            if (!submittable.contains(name)) {
                violations.add(Violation.of("outputs." + BoundedViolations.quoted(name), ViolationCode.UNKNOWN_FIELD,
                        "Expected only the step's declared outputs %s, but got '%s'".formatted(BoundedViolations.names(names), BoundedViolations.quoted(name))));
            }
            if (violations.isCut()) {
                break;
            }
        }
        return violations.list();
    }
}
