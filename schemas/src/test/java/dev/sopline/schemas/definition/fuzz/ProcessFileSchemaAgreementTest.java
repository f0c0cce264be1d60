package dev.sopline.schemas.definition.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.networknt.schema.Error;
import dev.sopline.schemas.definition.ProcessFileSchema;
import dev.sopline.schemas.definition.ProcessFiles;
import dev.sopline.schemas.validation.Violation;
import dev.sopline.schemas.validation.ViolationCode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import tools.jackson.databind.JsonNode;

/**
 * The published JSON Schema and registration agree on randomly broken files: an editor never flags a file that
 * registers, and flags every file that registration refuses for its shape (a missing or misspelt field, a wrong type, a
 * value out of its enumeration or range, a malformed name, version or duration). What only registration can check
 * (unique names, references, cron and time zones, the inputs of a schedule trigger) is left out, and so is a name or
 * version written as an unquoted number ({@code version: 2}, {@code id: -0.0}): registration reads the number's text,
 * while JSON Schema sees only its value and cannot tell 2 from 2.0 (engine, version) or -0.0 from 0 (names).
 */
class ProcessFileSchemaAgreementTest {

    private static final long SEED = Long.getLong("sopline.fuzz.seed", 20261123L);
    private static final int TRIES = Integer.getInteger("sopline.fuzz.tries", 500);
    private static final Set<String> SHAPE_CODES = Set.of(ViolationCode.REQUIRED, ViolationCode.INVALID_TYPE,
            ViolationCode.NOT_IN_ENUM, ViolationCode.UNKNOWN_FIELD, ViolationCode.INVALID_DURATION, ViolationCode.INVALID_NAME,
            ViolationCode.INVALID_VERSION, ViolationCode.UNSUPPORTED_VERSION, ViolationCode.OUT_OF_RANGE,
            ViolationCode.FORBIDDEN_SECRET_ENV);

    @TestFactory
    Stream<DynamicTest> shouldAgreeWithRegistrationOnEveryMutatedFile() {
        List<String> seeds = seedFiles();
        SplittableRandom random = new SplittableRandom(SEED + 1);
        return Stream.generate(random::nextLong).limit(TRIES).map(seed -> {
            Random mutation = new Random(seed);
            ProcessFileMutator.Mutant mutant = ProcessFileMutator.mutate(seeds.get(mutation.nextInt(seeds.size())), mutation);
            String name = "seed %d: %s".formatted(seed, mutant.changes().isEmpty() ? "unchanged" : String.join("; ", mutant.changes()));
            return DynamicTest.dynamicTest(name, () -> assertAgreement(mutant));
        });
    }

    private static void assertAgreement(ProcessFileMutator.Mutant mutant) {
        Optional<JsonNode> json = ProcessFileSchema.json(mutant.bytes());
        if (json.isEmpty() || hasNonFiniteNumber(json.get()) || mutant.text().contains("!!")) {
            // Not readable YAML; or .inf and .nan, which JSON cannot hold; or explicit tags (!!float 2d), which
            // registration reads through Java's number parsing and editors their own way: no JSON Schema verdict to compare.
            return;
        }
        Optional<List<Error>> schemaErrors = Optional.of(ProcessFileSchema.errors(json.get()));
        ProcessFiles.LoadResult result = ProcessFiles.load(mutant.bytes());
        if (result instanceof ProcessFiles.Loaded) {
            assertThat(schemaErrors.get()).as("schema errors for a file that registers:%n%s", mutant.text()).isEmpty();
            return;
        }
        List<Violation> shapeViolations = ((ProcessFiles.Invalid) result).violations().stream()
                .filter(violation -> SHAPE_CODES.contains(violation.code()))
                .filter(violation -> !violation.field().startsWith("process.trigger.inputs"))
                .filter(violation -> !isUnquotedNumberAsNameOrVersion(violation))
                .toList();
        if (!shapeViolations.isEmpty()) {
            assertThat(schemaErrors.get()).as("no schema error for %s in:%n%s", shapeViolations, mutant.text()).isNotEmpty();
        }
    }

    private static boolean isUnquotedNumberAsNameOrVersion(Violation violation) {
        return Set.of(ViolationCode.INVALID_VERSION, ViolationCode.INVALID_NAME, ViolationCode.UNSUPPORTED_VERSION).contains(violation.code())
                && violation.message().matches(".*(but got|declares) '[-+]?[0-9][0-9.eE+-]*'$");
    }

    private static boolean hasNonFiniteNumber(JsonNode node) {
        if (node.isNumber()) {
            return node.isFloatingPointNumber() && !Double.isFinite(node.asDouble());
        }
        for (JsonNode child : node.values()) {
            if (hasNonFiniteNumber(child)) {
                return true;
            }
        }
        return false;
    }

    private static List<String> seedFiles() {
        return Stream.of(Path.of("..", "examples"), Path.of("src", "test", "resources", "definitions"))
                .flatMap(directory -> {
                    try (Stream<Path> listing = Files.list(directory)) {
                        return listing.filter(path -> path.toString().endsWith(".yaml")).sorted().toList().stream();
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                })
                .map(path -> {
                    try {
                        return Files.readString(path);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                })
                .toList();
    }
}
