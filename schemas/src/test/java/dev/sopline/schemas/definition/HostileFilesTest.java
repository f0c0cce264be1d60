package dev.sopline.schemas.definition;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.schemas.definition.ProcessFiles.Invalid;
import dev.sopline.schemas.definition.validation.DefinitionValidator;
import dev.sopline.schemas.validation.Violation;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Files written to hurt the loader: each gives a clear violation, never an exception. */
class HostileFilesTest {

    private static List<Violation> violationsOf(byte[] bytes) {
        ProcessFiles.LoadResult result = ProcessFiles.load(bytes);
        assertThat(result).isInstanceOf(Invalid.class);
        return ((Invalid) result).violations();
    }

    private static List<Violation> violationsOf(String text) {
        return violationsOf(text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void shouldRefuseAProcessWhoseAutomatedStepsNameMoreTeamsThanMayHaveTopics() {
        // given: each team is a topic the engine creates on the shared broker
        StringBuilder yaml = processWithSteps();
        for (int i = 0; i <= DefinitionValidator.MAX_TEAMS; i++) {
            yaml.append("    - {id: s%d, type: automated, run: team%d.work}\n".formatted(i, i));
            yaml.append("    - {id: t%d, type: automated, run: team%d.more}\n".formatted(i, i));
        }

        // when
        List<Violation> violations = violationsOf(yaml.toString());

        // then: one violation, at the first step past the limit
        assertThat(violations).singleElement().satisfies(violation -> {
            assertThat(violation.code()).isEqualTo("limit_reached");
            assertThat(violation.field()).isEqualTo("process.steps[%d].run".formatted(2 * DefinitionValidator.MAX_TEAMS));
        });
    }

    @Test
    void shouldTakeAProcessWhoseAutomatedStepsNameAsManyTeamsAsMayHaveTopics() {
        StringBuilder yaml = processWithSteps();
        for (int i = 0; i < DefinitionValidator.MAX_TEAMS; i++) {
            yaml.append("    - {id: s%d, type: automated, run: team%d.work}\n".formatted(i, i));
        }

        assertThat(ProcessFiles.load(yaml.toString().getBytes(StandardCharsets.UTF_8))).isNotInstanceOf(Invalid.class);
    }

    /** A process file up to its {@code steps:} key, for the steps to follow. */
    private static StringBuilder processWithSteps() {
        return new StringBuilder("""
                engine: "0.1"
                process:
                  name: many-teams
                  version: "1.0"
                  steps:
                """);
    }

    @Test
    void shouldRefuseBillionLaughsWhenAliasesExplode() {
        // given
        StringBuilder yaml = new StringBuilder("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
        char previous = 'a';
        for (char name = 'b'; name <= 'j'; name++) {
            yaml.append(name).append(": &").append(name).append(" [");
            for (int i = 0; i < 9; i++) {
                yaml.append(i == 0 ? "" : ",").append('*').append(previous);
            }
            yaml.append("]\n");
            previous = name;
        }

        // when
        List<Violation> violations = violationsOf(yaml.toString());

        // then
        assertThat(violations).extracting(Violation::code).containsExactly("too_large");
    }

    @Test
    void shouldRefuseScalarAliasesWhenTheirTextExpandsPastTheFileSize() {
        // given: one anchored text of 100,000 characters, named 300 times: 30 million characters once expanded
        StringBuilder yaml = new StringBuilder("""
                engine: "0.1"
                process:
                  name: bomb
                  version: "1.0"
                  description: &big "%s"
                  steps:
                    - id: a
                      type: form
                      inputs:
                """.formatted("x".repeat(100_000)));
        for (int i = 0; i < 300; i++) {
            yaml.append("        i").append(i).append(": *big\n");
        }

        // when
        List<Violation> violations = violationsOf(yaml.toString());

        // then
        assertThat(violations).extracting(Violation::code).containsExactly("too_large");
        assertThat(violations.get(0).message()).contains("aliases");
    }

    @Test
    void shouldRefuseNumberWhenItHasMoreDigitsThanJsonAllows() {
        // given: 250,000 digits tagged as a whole number, which SnakeYAML reads as a BigInteger in about a second of CPU
        String yaml = """
                engine: "0.1"
                process:
                  name: digits
                  version: "1.0"
                  description: !!int %s
                  steps:
                    - id: a
                      type: form
                """.formatted("9".repeat(250_000));

        // when
        List<Violation> violations = violationsOf(yaml);

        // then
        assertThat(violations).extracting(Violation::field, Violation::code, Violation::line)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("process.description", "too_large", 5));
    }

    @Test
    void shouldRefuseDeepNestingWhenTenThousandLevelsDeep() {
        // given
        String yaml = "a: " + "[".repeat(10_000) + "]".repeat(10_000);

        // when
        List<Violation> violations = violationsOf(yaml);

        // then
        assertThat(violations).extracting(Violation::code).containsExactly("too_large");
        assertThat(violations.get(0).message()).contains("nesting");
    }

    @Test
    void shouldRefuseFileWhenLargerThan256KiB() {
        // given
        byte[] oneMebibyte = ("# " + "x".repeat(1024 * 1024) + "\n").getBytes(StandardCharsets.UTF_8);

        // when
        List<Violation> violations = violationsOf(oneMebibyte);

        // then
        assertThat(violations).extracting(Violation::code).containsExactly("too_large");
    }

    @Test
    void shouldRefuseJavaTagWhenFileAsksForAClass() {
        // given
        String yaml = """
                engine: "0.1"
                process: !!javax.script.ScriptEngineManager [!!java.net.URLClassLoader [[!!java.net.URL ["http://127.0.0.1/"]]]]
                """;

        // when
        List<Violation> violations = violationsOf(yaml);

        // then
        assertThat(violations).extracting(Violation::code).containsExactly("unsupported_tag");
        assertThat(violations.get(0).line()).isEqualTo(2);
    }

    @Test
    void shouldRefuseLocalTagWhenFileUsesOne() {
        // given
        String yaml = """
                engine: "0.1"
                process:
                  name: !custom p
                """;

        // when
        List<Violation> violations = violationsOf(yaml);

        // then
        assertThat(violations).extracting(Violation::field, Violation::code)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("process.name", "unsupported_tag"));
        assertThat(violations.get(0).line()).isEqualTo(3);
    }

    @Test
    void shouldRefuseInvalidUtf8WhenBytesAreMalformed() {
        // given
        byte[] bytes = {'e', 'n', 'g', 'i', 'n', 'e', ':', ' ', (byte) 0xC3, (byte) 0x28, '\n'};

        // when
        List<Violation> violations = violationsOf(bytes);

        // then
        assertThat(violations).extracting(Violation::code).containsExactly("syntax_error");
        assertThat(violations.get(0).message()).contains("UTF-8");
    }

    @Test
    void shouldRefuseEmptyFileWhenItHasNoContent() {
        // when
        List<Violation> violations = violationsOf("");

        // then
        assertThat(violations).extracting(Violation::code).containsExactly("required");
    }

    @Test
    void shouldRefuseListWhenDocumentShouldBeAMapping() {
        // when
        List<Violation> violations = violationsOf("- engine: 0.1\n- process: {}\n");

        // then
        assertThat(violations).extracting(Violation::code).containsExactly("invalid_type");
    }

    @Test
    void shouldReportLineAndColumnWhenYamlSyntaxIsBroken() {
        // given
        String yaml = """
                engine: "0.1"
                process:
                  name: [unclosed
                  version: "1.0"
                """;

        // when
        List<Violation> violations = violationsOf(yaml);

        // then
        Violation violation = violations.get(0);
        assertThat(violation.code()).isEqualTo("syntax_error");
        assertThat(violation.line()).isNotNull().isBetween(3, 5);
        assertThat(violation.column()).isNotNull().isPositive();
    }

    @Test
    void shouldRefuseScalarWhenDocumentIsPlainText() {
        // when
        List<Violation> violations = violationsOf("just some words");

        // then
        assertThat(violations).extracting(Violation::code).containsExactly("invalid_type");
    }

    @ParameterizedTest
    @ValueSource(strings = {"!!int abc", "!!float abc", "!!int 0o9", "!!bool maybe", "!!map abc", "!!seq abc", "!!str {a: 1}", "!!int [1]"})
    void shouldReportInvalidTypeWhenAStandardTagDoesNotFitItsValue(String taggedValue) {
        // given
        String yaml = """
                engine: "0.1"
                process:
                  name: %s
                  version: "1.0"
                  steps:
                    - id: a
                      type: form
                """.formatted(taggedValue);

        // when
        List<Violation> violations = violationsOf(yaml);

        // then
        assertThat(violations).extracting(Violation::field, Violation::code, Violation::line, Violation::column)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("process.name", "invalid_type", 3, 9));
    }
}
