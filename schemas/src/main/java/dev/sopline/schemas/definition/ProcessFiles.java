package dev.sopline.schemas.definition;

import dev.sopline.schemas.definition.validation.DefinitionValidator;
import dev.sopline.schemas.definition.yaml.ProcessFileParser;
import dev.sopline.schemas.validation.Violation;
import java.util.List;

/** Turns the bytes of a process file into a validated {@link ProcessFile}, or every violation found in it. */
public final class ProcessFiles {

    private ProcessFiles() {}

    /** The outcome of loading a process file. */
    public sealed interface LoadResult permits Loaded, Invalid {}

    /** A valid file. */
    public record Loaded(ProcessFile file) implements LoadResult {}

    /** A file that cannot be registered, with every violation and its place in the file. */
    public record Invalid(List<Violation> violations) implements LoadResult {}

    public static LoadResult load(byte[] bytes) {
        ProcessFileParser.Parsed parsed = ProcessFileParser.parse(bytes);
        if (parsed.file() == null) {
            return new Invalid(parsed.violations());
        }
        List<Violation> semantic = DefinitionValidator.validate(parsed.file()).stream()
                .map(violation -> violation.at(parsed.document().positionOf(violation.field()).orElse(null)))
                .toList();
        if (parsed.violations().isEmpty() && semantic.isEmpty()) {
            return new Loaded(parsed.file());
        }
        return new Invalid(java.util.stream.Stream.concat(parsed.violations().stream(), semantic.stream()).toList());
    }
}
