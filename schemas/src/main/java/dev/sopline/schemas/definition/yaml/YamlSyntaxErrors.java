package dev.sopline.schemas.definition.yaml;

import dev.sopline.schemas.validation.SourcePosition;
import dev.sopline.schemas.validation.Violation;
import dev.sopline.schemas.validation.ViolationCode;
import java.io.StringReader;
import java.util.Optional;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.events.Event;
import org.yaml.snakeyaml.events.ScalarEvent;

/**
 * Puts SnakeYAML's syntax errors in plain words, placed where the problem starts rather than where the parser gave up.
 *
 * <p>SnakeYAML reports two places: the context mark (where the construct it was reading began, such as an opening
 * quote or bracket) and the problem mark (where reading failed). For an unclosed quote or bracket the parser only fails
 * at the next quote or at the end of the file, often many lines later, so those errors point at the context mark.
 * The texts matched here are SnakeYAML's own messages; anything not recognised keeps the parser's words.
 */
final class YamlSyntaxErrors {

    private YamlSyntaxErrors() {}

    static Violation describe(MarkedYAMLException error, String text, LoaderOptions options) {
        String context = String.valueOf(error.getContext());
        String problem = error.getProblem() != null ? error.getProblem() : String.valueOf(error.getMessage()).lines().findFirst().orElse("");
        Mark opened = error.getContextMark();
        Mark failed = error.getProblemMark() != null ? error.getProblemMark() : opened;

        if (context.startsWith("while scanning a quoted scalar") && opened != null) {
            if (problem.contains("unknown escape character")) {
                return at(failed, "A double-quoted value has an unknown escape after '\\': write '\\\\' for a backslash,"
                        + " or put the value in single quotes");
            }
            return unclosedQuote(opened);
        }
        if (problem.contains("(TAB)")) {
            return at(failed, "A tab is used for indentation: YAML indents with spaces only");
        }
        if (problem.startsWith("found character") && problem.contains("cannot start any token")) {
            return at(failed, "A value cannot start with %s: put the value in quotes".formatted(quotedCharacter(problem)));
        }
        if (context.startsWith("while parsing a flow sequence") && opened != null) {
            return at(opened, "A list opened with '[' on line %d is not closed with ']'".formatted(line(opened)));
        }
        if (context.startsWith("while parsing a flow mapping") && opened != null) {
            return at(opened, "A mapping opened with '{' on line %d is not closed with '}'".formatted(line(opened)));
        }
        if (context.startsWith("while scanning a simple key") && opened != null) {
            return at(opened, "The key on line %d has no ':' after it".formatted(line(opened)));
        }
        if (problem.startsWith("mapping values are not allowed here")) {
            return at(failed, "A ':' is not allowed here: the line is indented more than the key above it,"
                    + " or a value contains ': ' and must be put in quotes");
        }
        if (problem.startsWith("found undefined alias")) {
            return at(failed, "The alias '*%s' names no anchor defined before it".formatted(problem.substring("found undefined alias".length()).trim()));
        }
        if (problem.startsWith("expected <block end>") && failed != null) {
            return misplacedAfter(text, options, failed, problem);
        }
        return at(failed, "The file is not valid YAML: " + problem);
    }

    /**
     * The parser expected the mapping or list to go on, but found something else. Usually a line is out of step with
     * the lines above it; when a quoted value ends on the failing line, the quote is the real problem.
     */
    private static Violation misplacedAfter(String text, LoaderOptions options, Mark failed, String problem) {
        Optional<ScalarEvent> quoted = lastQuotedValueBefore(text, options);
        if (quoted.isPresent() && quoted.get().getEndMark().getLine() == failed.getLine()) {
            Mark start = quoted.get().getStartMark();
            if (start.getLine() != failed.getLine()) {
                // A quote left open runs on to the next quote in the file, which closes it lines later.
                return unclosedQuote(start);
            }
            return at(failed, ("Text follows the closing quote of the value on line %d: inside single quotes write a quote twice ('it''s'),"
                    + " inside double quotes write \\\"").formatted(line(start)));
        }
        if (problem.contains("'-'")) {
            return at(failed, "A list item '-' on line %d stands where a key of the mapping above was expected".formatted(line(failed)));
        }
        return at(failed, "Line %d is not aligned with the lines above it: the keys of one mapping, and the items of one list,"
                .formatted(line(failed)) + " must start in the same column");
    }

    private static Optional<ScalarEvent> lastQuotedValueBefore(String text, LoaderOptions options) {
        ScalarEvent last = null;
        try {
            for (Event event : new Yaml(options).parse(new StringReader(text))) {
                if (event instanceof ScalarEvent scalar && !scalar.isPlain()) {
                    last = scalar;
                }
            }
        } catch (YAMLException stopsAtTheSameError) {
            // the events read so far are the ones before the error
        }
        return Optional.ofNullable(last);
    }

    private static Violation unclosedQuote(Mark opened) {
        return at(opened, "A quoted value is not closed: the quote opened on line %d has no closing quote".formatted(line(opened)));
    }

    /** {@code found character '@' that cannot start any token...} → {@code '@'}; a tab is matched before this. */
    private static String quotedCharacter(String problem) {
        int start = problem.indexOf('\'');
        int end = start < 0 ? -1 : problem.indexOf('\'', start + 1);
        return end < 0 ? "this character" : problem.substring(start, end + 1);
    }

    private static int line(Mark mark) {
        return mark.getLine() + 1;
    }

    private static Violation at(Mark mark, String message) {
        Violation violation = Violation.of("", ViolationCode.SYNTAX_ERROR, message);
        return mark == null ? violation : violation.at(new SourcePosition(mark.getLine() + 1, mark.getColumn() + 1));
    }
}
