package dev.sopline.judgment;

import dev.sopline.schemas.definition.OutputDeclaration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What the offline agent compares a case with: for each allowed value, the value itself followed by the sentences of
 * the step's instructions that name it ({@code billing: charges, refunds, invoices...}) and the output's description.
 * A whole policy does not fit the model's window and reads as one blur; the sentences about one value describe it.
 */
final class OptionTexts {

    /**
     * A full stop, question or exclamation mark and a space. Not {@link java.text.BreakIterator}: it keeps a sentence
     * going when the next one starts in lower case, as policy clauses such as {@code billing: charges...} do.
     */
    private static final Pattern SENTENCE_END = Pattern.compile("(?<=[.!?])\\s+");

    private OptionTexts() {}

    static String of(OutputDeclaration output, String candidate, String instructions) {
        StringBuilder text = new StringBuilder(words(output.name())).append(": ").append(words(candidate)).append('.');
        sentencesNaming(words(candidate), instructions).forEach(sentence -> text.append(' ').append(sentence));
        if (output.description() != null) {
            text.append(' ').append(output.description());
        }
        return text.toString();
    }

    private static List<String> sentencesNaming(String value, String instructions) {
        List<String> found = new ArrayList<>();
        if (instructions == null || instructions.isBlank()) {
            return found;
        }
        Pattern named = Pattern.compile("\\b" + Pattern.quote(value) + "\\b", Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
        for (String sentence : SENTENCE_END.split(instructions.strip())) {
            if (named.matcher(sentence).find()) {
                found.add(sentence);
            }
        }
        return found;
    }

    static String words(String name) {
        return name.replace('_', ' ').replace('-', ' ');
    }
}
