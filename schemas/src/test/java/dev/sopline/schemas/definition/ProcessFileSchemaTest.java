package dev.sopline.schemas.definition;

import static org.assertj.core.api.Assertions.assertThat;

import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.sopline.schemas.definition.validation.ReservedEnvironmentNames;
import dev.sopline.schemas.json.Json;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The published JSON Schema accepts what registration accepts and refuses what is malformed in shape. */
class ProcessFileSchemaTest {

    static Stream<Path> validFiles() throws IOException {
        try (Stream<Path> examples = Files.list(Path.of("..", "examples"));
                Stream<Path> fixtures = Files.list(Path.of("src", "test", "resources", "definitions"))) {
            return Stream.concat(examples, fixtures).filter(path -> path.toString().endsWith(".yaml")).sorted().toList().stream();
        }
    }

    @Test
    void shouldBeAValidDraft202012Schema() throws IOException {
        Schema metaSchema = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
                .getSchema(SchemaLocation.of("https://json-schema.org/draft/2020-12/schema"));
        try (InputStream in = ProcessFileSchemaTest.class.getResourceAsStream("/schemas/process-file.schema.json")) {
            assertThat(metaSchema.validate(Json.mapper().readTree(in))).isEmpty();
        }
    }

    @ParameterizedTest
    @MethodSource("validFiles")
    void shouldAcceptEveryExampleAndValidFixture(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        assertThat(ProcessFiles.load(bytes)).isInstanceOf(ProcessFiles.Loaded.class);
        assertThat(ProcessFileSchema.errors(bytes)).as(file.toString()).hasValue(List.of());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        // not a process file at all
        "- engine: 0.1\n- process: {}\n",
        "just some words",
        // missing, misplaced and misspelt fields
        "engine: \"0.1\"\nprocess:\n  name: p\n  version: \"1.0\"\n",
        "engine: \"0.1\"\nprocess:\n  name: p\n  version: \"1.0\"\n  steps: []\n",
        "engine: \"0.1\"\nprocess:\n  name: p\n  version: \"1.0\"\n  steps:\n    - type: form\n",
        "engine: \"0.1\"\nprocess:\n  name: p\n  version: \"1.0\"\n  steps:\n    id: a\n    type: form\n",
        "engine: \"0.1\"\nprocess:\n  name: p\n  version: \"1.0\"\n  steps:\n    - id: a\n      type: form\n      tiemout: 1h\n",
        "engine: \"0.1\"\nprocess:\n  name: p\n  version: \"1.0\"\n  steps:\n    - id: a\n      type: robot\n",
        "engine: \"0.1\"\nprocess:\n  name: p\n  version: \"1.0\"\n  owner: [a, b]\n  steps:\n    - id: a\n      type: form\n",
        // values outside what the engine reads
        "engine: \"1.0\"\nprocess:\n  name: p\n  version: \"1.0\"\n  steps:\n    - id: a\n      type: form\n",
        "engine: \"0.1\"\nprocess:\n  name: instances\n  version: \"1.0\"\n  steps:\n    - id: a\n      type: form\n",
        "engine: \"0.1\"\nprocess:\n  name: my process\n  version: \"1.0\"\n  steps:\n    - id: a\n      type: form\n",
        "engine: \"0.1\"\nprocess:\n  name: p\n  version: one\n  steps:\n    - id: a\n      type: form\n",
        "engine: \"0.1\"\nprocess:\n  name: p\n  version: \"1.0\"\n  steps:\n    - id: a\n      type: form\n      timeout: 30\n",
        "engine: \"0.1\"\nprocess:\n  name: p\n  version: \"1.0\"\n  steps:\n    - id: a\n      type: automated\n      run: x\n      retry:\n        initial_backoff: 2w\n",
        "engine: \"0.1\"\nprocess:\n  name: p\n  version: \"1.0\"\n  steps:\n    - id: a\n      type: automated\n      run: x\n      retry:\n        max_attempts: 0\n",
        "engine: \"0.1\"\nprocess:\n  name: p\n  version: \"1.0\"\n  steps:\n    - id: a\n      type: automated\n      run: x\n      retry:\n        max_attempts: 2.5\n",
        "engine: \"0.1\"\nprocess:\n  name: p\n  version: \"1.0\"\n  steps:\n    - id: a\n      type: automated\n      run: x\n      retry:\n        multiplier: 11\n",
        // what each kind of step and trigger needs
        "engine: \"0.1\"\nprocess:\n  name: p\n  version: \"1.0\"\n  steps:\n    - id: a\n      type: automated\n",
        "engine: \"0.1\"\nprocess:\n  name: p\n  version: \"1.0\"\n  steps:\n    - id: a\n      type: judgment\n      outputs:\n        - name: x\n",
        "engine: \"0.1\"\nprocess:\n  name: p\n  version: \"1.0\"\n  steps:\n    - id: a\n      type: judgment\n      judgment:\n        allow_agent: true\n",
        "engine: \"0.1\"\nprocess:\n  name: p\n  version: \"1.0\"\n  steps:\n    - id: a\n      type: judgment\n      judgment:\n        confidence_threshold: 1.5\n      outputs:\n        - name: x\n",
        "engine: \"0.1\"\nprocess:\n  name: p\n  version: \"1.0\"\n  steps:\n    - id: a\n      type: judgment\n      judgment:\n        allow_agent: \"yes\"\n      outputs:\n        - name: x\n",
        "engine: \"0.1\"\nprocess:\n  name: p\n  version: \"1.0\"\n  inputs:\n    - name: c\n      type: enum\n  steps:\n    - id: a\n      type: form\n",
        "engine: \"0.1\"\nprocess:\n  name: p\n  version: \"1.0\"\n  trigger:\n    type: schedule\n  steps:\n    - id: a\n      type: form\n",
        "engine: \"0.1\"\nprocess:\n  name: p\n  version: \"1.0\"\n  trigger:\n    type: webhook\n  steps:\n    - id: a\n      type: form\n",
        "engine: \"0.1\"\nprocess:\n  name: p\n  version: \"1.0\"\n  trigger:\n    type: webhook\n    auth:\n      secret_env: S\n      encoding: hexadecimal\n  steps:\n    - id: a\n      type: form\n",
        // outputs: required is a flag, and only a step's outputs have it
        "engine: \"0.1\"\nprocess:\n  name: p\n  version: \"1.0\"\n  steps:\n    - id: a\n      type: form\n      outputs:\n        - name: x\n          required: \"no\"\n",
        "engine: \"0.1\"\nprocess:\n  name: p\n  version: \"1.0\"\n  outputs:\n    - name: x\n      required: false\n  steps:\n    - id: a\n      type: form\n      outputs:\n        - name: x\n",
    })
    void shouldRefuseFileWhoseShapeIsInvalid(String yaml) {
        assertThat(ProcessFiles.load(yaml.getBytes(StandardCharsets.UTF_8))).isInstanceOf(ProcessFiles.Invalid.class);
        assertThat(ProcessFileSchema.errors(yaml)).as(yaml).isNotEmpty();
    }

    static Stream<String> reservedSecretNames() {
        return Stream.concat(ReservedEnvironmentNames.NAMES.stream(), ReservedEnvironmentNames.PREFIXES.stream().map(prefix -> prefix + "SECRET"))
                .flatMap(name -> Stream.of(name, name.toLowerCase(Locale.ROOT)));
    }

    @ParameterizedTest
    @MethodSource("reservedSecretNames")
    void shouldRefuseSecretEnvWhenItNamesAReservedVariable(String secretEnv) {
        assertThat(ProcessFileSchema.errors(webhookWithSecret(secretEnv))).isNotEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"ONBOARDING_SECRET", "MY_PATH", "PATHS", "SOPLINE", "home_secret"})
    void shouldAcceptSecretEnvWhenItOnlyResemblesAReservedName(String secretEnv) {
        assertThat(ReservedEnvironmentNames.isReserved(secretEnv)).isFalse();
        assertThat(ProcessFileSchema.errors(webhookWithSecret(secretEnv))).isEmpty();
    }

    @Test
    void shouldAcceptUnquotedNumbersAndEmptyOptionalValuesAsRegistrationDoes() {
        String yaml = """
                engine: 0.1
                process:
                  name: tiny
                  version: 1.10
                  owner:
                  description: 42
                  steps:
                    - id: 1
                      type: form
                      outputs:
                        - name: comment
                          required: false
                """;
        assertThat(ProcessFiles.load(yaml.getBytes(StandardCharsets.UTF_8))).isInstanceOf(ProcessFiles.Loaded.class);
        assertThat(ProcessFileSchema.errors(yaml)).isEmpty();
    }

    private static String webhookWithSecret(String secretEnv) {
        return """
                engine: "0.1"
                process:
                  name: hook
                  version: "1.0"
                  trigger:
                    type: webhook
                    auth:
                      secret_env: %s
                  steps:
                    - id: a
                      type: form
                """.formatted(secretEnv);
    }
}
