package dev.sopline.schemas.definition;

import static dev.sopline.schemas.definition.ProcessFilesTest.violations;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.schemas.validation.Violation;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A YAML syntax error is told in plain words, at the line and column where the mistake is, not where parsing gave up. */
class YamlSyntaxErrorsTest {

    private static Violation syntaxError(String yaml) {
        List<Violation> violations = violations(yaml);
        assertThat(violations).hasSize(1);
        Violation violation = violations.get(0);
        assertThat(violation.code()).isEqualTo("syntax_error");
        return violation;
    }

    private static void assertAt(Violation violation, int line, int column, String message) {
        assertThat(violation.line()).as("line of %s", violation).isEqualTo(line);
        assertThat(violation.column()).as("column of %s", violation).isEqualTo(column);
        assertThat(violation.message()).isEqualTo(message);
    }

    @Test
    void shouldPointAtTheOpeningQuoteWhenAQuoteIsNeverClosed() {
        Violation violation = syntaxError("""
                engine: "0.1"
                process:
                  name: p
                  description: "unclosed
                  version: 1.0
                  steps:
                    - id: a
                      type: form
                    - id: b
                      type: form
                """);
        assertAt(violation, 4, 16, "A quoted value is not closed: the quote opened on line 4 has no closing quote");
    }

    @Test
    void shouldPointAtTheOpeningQuoteWhenALaterQuoteClosesIt() {
        Violation violation = syntaxError("""
                engine: "0.1"
                process:
                  name: p
                  description: "unclosed
                  version: "1.0"
                  steps:
                    - id: a
                      type: form
                """);
        assertAt(violation, 4, 16, "A quoted value is not closed: the quote opened on line 4 has no closing quote");
    }

    @Test
    void shouldExplainQuoteInsideSingleQuotesWhenTextFollowsTheClosingQuote() {
        Violation violation = syntaxError("""
                engine: "0.1"
                process:
                  name: p
                  description: 'it's fine'
                """);
        assertAt(violation, 4, 20, "Text follows the closing quote of the value on line 4: inside single quotes write a quote"
                + " twice ('it''s'), inside double quotes write \\\"");
    }

    @Test
    void shouldNameTheLineOutOfStepWhenAKeyIsIndentedLessThanItsSiblings() {
        Violation violation = syntaxError("""
                engine: "0.1"
                process:
                  name: p
                  steps:
                    - id: a
                   type: form
                """);
        assertAt(violation, 6, 4, "Line 6 is not aligned with the lines above it: the keys of one mapping, and the items of one list,"
                + " must start in the same column");
    }

    @Test
    void shouldExplainTheColonWhenAKeyIsIndentedMoreThanTheKeyAbove() {
        Violation violation = syntaxError("""
                engine: "0.1"
                process:
                  name: p
                    version: "1.0"
                """);
        assertAt(violation, 4, 12, "A ':' is not allowed here: the line is indented more than the key above it,"
                + " or a value contains ': ' and must be put in quotes");
    }

    @Test
    void shouldNameTheTabWhenATabIndentsALine() {
        Violation violation = syntaxError("engine: \"0.1\"\nprocess:\n\tname: p\n");
        assertAt(violation, 3, 1, "A tab is used for indentation: YAML indents with spaces only");
    }

    @Test
    void shouldPointAtTheOpeningBracketWhenAListIsNotClosed() {
        Violation violation = syntaxError("""
                engine: "0.1"
                process:
                  name: [a, b
                  version: "1.0"
                """);
        assertAt(violation, 3, 9, "A list opened with '[' on line 3 is not closed with ']'");
    }

    @Test
    void shouldPointAtTheKeyWhenItHasNoColon() {
        Violation violation = syntaxError("""
                engine: "0.1"
                process
                  name: p
                """);
        assertAt(violation, 2, 1, "The key on line 2 has no ':' after it");
    }

    @Test
    void shouldAskForQuotesWhenAValueStartsWithAReservedCharacter() {
        Violation violation = syntaxError("""
                engine: "0.1"
                process:
                  name: @team
                """);
        assertAt(violation, 3, 9, "A value cannot start with '@': put the value in quotes");
    }
}
