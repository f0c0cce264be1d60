package dev.sopline.schemas.definition.yaml;

import dev.sopline.schemas.definition.ProcessFile;
import dev.sopline.schemas.validation.Violation;
import java.util.List;

/** Reads and binds a process file: YAML limits and syntax first, then the shape of every field. */
public final class ProcessFileParser {

    private ProcessFileParser() {}

    /**
     * The bound file (null when the YAML itself cannot be read or is not a mapping), the document it came from, and
     * the violations found so far.
     */
    public record Parsed(ProcessFile file, YamlDocument document, List<Violation> violations) {}

    public static Parsed parse(byte[] bytes) {
        YamlReader.Result result = new YamlReader().read(bytes);
        if (result instanceof YamlReader.Unreadable unreadable) {
            return new Parsed(null, null, unreadable.violations());
        }
        YamlDocument document = ((YamlReader.Read) result).document();
        FieldReader reader = new FieldReader(document);
        ProcessFile file = new ProcessFileBinder(reader).bind(document.root()).orElse(null);
        return new Parsed(file, document, List.copyOf(reader.violations()));
    }
}
