package dev.sopline.schemas.definition;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.sopline.schemas.definition.yaml.YamlReader;
import dev.sopline.schemas.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * The published JSON Schema of process files, applied as an editor applies it: to the YAML's values, read by the same
 * reader registration uses.
 */
public final class ProcessFileSchema {

    private static final Schema SCHEMA = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
                    builder -> builder.schemaIdResolvers(resolvers -> resolvers.mapPrefix("https://sopline.dev/schemas/", "classpath:schemas/")))
            .getSchema(SchemaLocation.of("https://sopline.dev/schemas/process-file.schema.json"));

    private ProcessFileSchema() {}

    /** The file's values as JSON, or empty when the YAML itself cannot be read (the schema has nothing to check). */
    public static Optional<JsonNode> json(byte[] yaml) {
        if (!(new YamlReader().read(yaml) instanceof YamlReader.Read read)) {
            return Optional.empty();
        }
        return Optional.of(Json.mapper().valueToTree(read.document().root()));
    }

    public static List<Error> errors(JsonNode json) {
        return SCHEMA.validate(json);
    }

    public static Optional<List<Error>> errors(byte[] yaml) {
        return json(yaml).map(ProcessFileSchema::errors);
    }

    public static List<Error> errors(String yaml) {
        return errors(yaml.getBytes(StandardCharsets.UTF_8)).orElseThrow(() -> new AssertionError("not readable YAML:\n" + yaml));
    }
}
