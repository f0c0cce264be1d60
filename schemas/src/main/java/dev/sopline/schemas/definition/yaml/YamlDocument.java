package dev.sopline.schemas.definition.yaml;

import dev.sopline.schemas.validation.SourcePosition;
import java.util.Map;
import java.util.Optional;

/**
 * A YAML document read into plain values (maps, lists, strings, numbers, booleans, null) together with where each
 * value stands in the file and the literal text of each scalar, both keyed by field path ({@code process.steps[2].id}).
 *
 * @param root the document's top value; null for an empty document
 * @param positions line and column of every value by path
 * @param scalarTexts source text of every scalar by path, so that {@code version: 1.10} reads as "1.10", not 1.1
 */
public record YamlDocument(Object root, Map<String, SourcePosition> positions, Map<String, String> scalarTexts) {

    public Optional<SourcePosition> positionOf(String path) {
        String candidate = path;
        while (true) {
            SourcePosition position = positions.get(candidate);
            if (position != null) {
                return Optional.of(position);
            }
            int cut = Math.max(candidate.lastIndexOf('.'), candidate.lastIndexOf('['));
            if (cut <= 0) {
                return Optional.ofNullable(positions.get(""));
            }
            candidate = candidate.substring(0, cut);
        }
    }

    public String scalarText(String path) {
        return scalarTexts.get(path);
    }
}
