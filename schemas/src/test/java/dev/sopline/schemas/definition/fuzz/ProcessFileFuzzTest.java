package dev.sopline.schemas.definition.fuzz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.sopline.schemas.definition.Durations;
import dev.sopline.schemas.definition.InputDeclaration;
import dev.sopline.schemas.definition.OutputDeclaration;
import dev.sopline.schemas.definition.ProcessDefinition;
import dev.sopline.schemas.definition.ProcessFile;
import dev.sopline.schemas.definition.ProcessFiles;
import dev.sopline.schemas.definition.StepDefinition;
import dev.sopline.schemas.definition.TriggerType;
import dev.sopline.schemas.definition.validation.ReservedEnvironmentNames;
import dev.sopline.schemas.validation.Violation;
import dev.sopline.schemas.validation.ViolationCode;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Registration must answer every process file with a definition or with violations, never with an exception (which
 * the gateway can only turn into a 500). Valid files from {@code examples/} and the test fixtures are broken in
 * random ways by {@link ProcessFileMutator} and loaded through {@link ProcessFiles#load}, the gateway's entry point.
 *
 * <p>Each try is one test named after its seed and its changes. The seed and the number of tries are fixed so that
 * the build is repeatable; {@code -Dsopline.fuzz.seed=...} and {@code -Dsopline.fuzz.tries=...} explore further,
 * and a failing try replays alone with its own seed and {@code -Dsopline.fuzz.tries=1}.
 */
class ProcessFileFuzzTest {

    private static final long SEED = Long.getLong("sopline.fuzz.seed", 20261123L);
    private static final int TRIES = Integer.getInteger("sopline.fuzz.tries", 1000);
    /** Violations about the whole file that have no place in it: limits, and bytes that are not UTF-8. */
    private static final Set<String> UNPLACED_CODES = Set.of(ViolationCode.TOO_LARGE, ViolationCode.SYNTAX_ERROR);
    private static final Set<String> KNOWN_CODES = knownCodes();
    private static final List<String> SEEDS = seedFiles();

    @TestFactory
    Stream<DynamicTest> shouldAnswerEveryMutatedFileWithADefinitionOrLocatedViolations() {
        SplittableRandom seeds = new SplittableRandom(SEED);
        return Stream.generate(seeds::nextLong).limit(TRIES).map(seed -> {
            Random random = new Random(seed);
            String seedFile = SEEDS.get(random.nextInt(SEEDS.size()));
            ProcessFileMutator.Mutant mutant = ProcessFileMutator.mutate(seedFile, random);
            String name = "seed %d: %s".formatted(seed, mutant.changes().isEmpty() ? "unchanged" : String.join("; ", mutant.changes()));
            return DynamicTest.dynamicTest(name, () -> {
                try {
                    assertAnswered(mutant);
                } catch (AssertionError failure) {
                    throw new AssertionError(name + System.lineSeparator() + failure.getMessage(), failure);
                }
            });
        });
    }

    private static void assertAnswered(ProcessFileMutator.Mutant mutant) {
        ProcessFiles.LoadResult result;
        try {
            result = ProcessFiles.load(mutant.bytes());
        } catch (Throwable thrown) {
            StringWriter trace = new StringWriter();
            thrown.printStackTrace(new PrintWriter(trace));
            fail("Expected a definition or violations, but loading threw %s%n--- file ---%n%s%n--- trace ---%n%s"
                    .formatted(thrown, excerpt(mutant.text()), trace));
            return;
        }
        if (result instanceof ProcessFiles.Loaded loaded) {
            assertUsable(loaded.file(), mutant);
        } else {
            assertLocated(((ProcessFiles.Invalid) result).violations(), mutant);
        }
    }

    /** What the engine and the gateway rely on in a registered definition, without checking it again. */
    private static void assertUsable(ProcessFile file, ProcessFileMutator.Mutant mutant) {
        String context = "loaded file%n%s".formatted(excerpt(mutant.text()));
        ProcessDefinition process = file.process();
        assertThat(process).as(context).isNotNull();
        assertThat(process.name()).as(context).isNotBlank();
        assertThat(process.version()).as(context).isNotBlank();
        assertThat(process.trigger()).as(context).isNotNull();
        assertThat(process.steps()).as(context).isNotEmpty();
        assertThat(process.inputs()).extracting(InputDeclaration::name).as(context).doesNotContainNull();
        assertThat(process.outputs()).extracting(OutputDeclaration::name).as(context).doesNotContainNull();
        for (StepDefinition step : process.steps()) {
            assertThat(step.id()).as(context).isNotBlank();
            assertThat(step.type()).as(context).isNotNull();
            assertThat(step.outputs()).extracting(OutputDeclaration::name).as(context).doesNotContainNull();
            assertThat(process.indexOf(step.id())).as(context).isGreaterThanOrEqualTo(0);
            if (step.timeout() != null) {
                assertThat(Durations.parse(step.timeout())).as(context).isPresent();
            }
            if (step.judgment() != null) {
                assertThat(step.judgment().confidenceThreshold()).as(context).isBetween(0.0, 1.0);
            }
            if (step.retry() != null) {
                assertThat(step.retry().maxAttempts()).as(context).isBetween(1, 100);
                assertThat(step.retry().multiplier()).as(context).isBetween(1.0, 10.0);
                assertThat(Durations.parse(step.retry().initialBackoff())).as(context).isPresent();
            }
        }
        if (process.trigger().type() == TriggerType.WEBHOOK) {
            assertThat(process.trigger().auth()).as(context).isNotNull();
            assertThat(process.trigger().auth().secretEnv()).as(context).isNotBlank();
        }
        if (process.trigger().auth() != null) {
            assertThat(ReservedEnvironmentNames.isReserved(process.trigger().auth().secretEnv())).as(context).isFalse();
        }
    }

    private static void assertLocated(List<Violation> violations, ProcessFileMutator.Mutant mutant) {
        String text = mutant.text();
        long lines = text.chars().filter(c -> c == '\n' || c == '\r' || c == '\u0085' || c == '\u2028' || c == '\u2029').count() + 1;
        assertThat(violations).as("violations of%n%s", excerpt(text)).isNotEmpty();
        for (Violation violation : violations) {
            String context = "%s%nin%n%s".formatted(violation, excerpt(text));
            assertThat(violation.field()).as(context).isNotNull();
            assertThat(violation.code()).as(context).isIn(KNOWN_CODES);
            assertThat(violation.message()).as(context).isNotBlank();
            assertThat(violation.line() == null).as("line and column both present or both absent: " + context)
                    .isEqualTo(violation.column() == null);
            if (violation.line() == null) {
                assertThat(violation.field()).as("only file-wide violations may lack a place: " + context).isEmpty();
                assertThat(violation.code()).as("only file-wide violations may lack a place: " + context).isIn(UNPLACED_CODES);
            } else {
                assertThat(violation.line()).as(context).isBetween(1, (int) Math.min(Integer.MAX_VALUE, lines));
                assertThat(violation.column()).as(context).isPositive();
            }
        }
    }

    private static String excerpt(String text) {
        return text.length() <= 3_000 ? text : text.substring(0, 3_000) + "%n... (%d characters in all)".formatted(text.length());
    }

    private static Set<String> knownCodes() {
        return Arrays.stream(ViolationCode.class.getFields())
                .filter(field -> Modifier.isStatic(field.getModifiers()) && field.getType() == String.class)
                .map(ProcessFileFuzzTest::constant)
                .collect(Collectors.toUnmodifiableSet());
    }

    private static String constant(Field field) {
        try {
            return (String) field.get(null);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The valid files the mutations start from: every example and every test fixture. */
    private static List<String> seedFiles() {
        List<String> files = Stream.of(Path.of("..", "examples"), Path.of("src", "test", "resources", "definitions"))
                .flatMap(ProcessFileFuzzTest::yamlFiles)
                .map(ProcessFileFuzzTest::read)
                .toList();
        assertThat(files).hasSizeGreaterThanOrEqualTo(6);
        for (String file : files) {
            assertThat(ProcessFiles.load(file.getBytes(StandardCharsets.UTF_8))).as(file).isInstanceOf(ProcessFiles.Loaded.class);
        }
        return files;
    }

    private static Stream<Path> yamlFiles(Path directory) {
        try (Stream<Path> listing = Files.list(directory)) {
            return listing.filter(path -> path.toString().endsWith(".yaml")).sorted().toList().stream();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(Path path) {
        try {
            return Files.readString(path);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
