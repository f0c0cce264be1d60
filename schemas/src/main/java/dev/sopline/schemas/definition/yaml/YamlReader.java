package dev.sopline.schemas.definition.yaml;

import dev.sopline.schemas.validation.SourcePosition;
import dev.sopline.schemas.validation.Violation;
import dev.sopline.schemas.validation.ViolationCode;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * Reads a process file into a {@link YamlDocument}, or the violations that stop it from being read.
 *
 * <p>SnakeYAML composes the node tree (no object construction, so no class is ever instantiated from a tag) under
 * limits on size, aliases and nesting; this class then walks the nodes itself because only the nodes carry the line
 * and column that every error detail needs. Any tag other than YAML's standard scalar and collection tags is refused.
 */
public final class YamlReader {

    public static final int MAX_DOCUMENT_BYTES = 256 * 1024;
    static final int MAX_ALIASES = 50;
    static final int MAX_NESTING_DEPTH = 50;
    static final int MAX_VALUES = 20_000;
    /**
     * Characters of keys and scalars once aliases are expanded. SnakeYAML counts aliases to collections only, so one
     * long anchored text named thousands of times made a definition of gigabytes that the file's 256 KiB never showed.
     * A file without aliases never has more text than bytes.
     */
    static final int MAX_TEXT_CHARS = MAX_DOCUMENT_BYTES;
    /**
     * Characters of one number, as Jackson allows in JSON. SnakeYAML reads a whole number of more digits than a long
     * holds as a BigInteger, in time that grows with the square of its length: 250,000 digits took seconds of CPU.
     */
    static final int MAX_NUMBER_CHARS = 1_000;

    private static final Set<Tag> STANDARD_TAGS =
            Set.of(Tag.STR, Tag.INT, Tag.FLOAT, Tag.BOOL, Tag.NULL, Tag.MAP, Tag.SEQ, Tag.TIMESTAMP);

    public sealed interface Result permits Read, Unreadable {}

    public record Read(YamlDocument document) implements Result {}

    public record Unreadable(List<Violation> violations) implements Result {}

    public Result read(byte[] bytes) {
        if (bytes.length > MAX_DOCUMENT_BYTES) {
            return unreadable(Violation.of("", ViolationCode.TOO_LARGE,
                    "Expected a process file of at most %d bytes, but it has %d".formatted(MAX_DOCUMENT_BYTES, bytes.length)));
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (MalformedInputException e) {
            return unreadable(Violation.of("", ViolationCode.SYNTAX_ERROR, "Expected UTF-8 text, but found an invalid byte sequence"));
        } catch (CharacterCodingException e) {
            return unreadable(Violation.of("", ViolationCode.SYNTAX_ERROR, "Expected UTF-8 text, but it cannot be decoded"));
        }
        LoaderOptions options = loaderOptions();
        Node root;
        try {
            root = new Yaml(options).compose(new StringReader(text));
        } catch (MarkedYAMLException e) {
            return unreadable(syntaxError(e, text, options));
        } catch (YAMLException e) {
            return unreadable(limitOrSyntax(e));
        } catch (StackOverflowError e) {
            return unreadable(Violation.of("", ViolationCode.TOO_LARGE, "Expected nesting of at most %d levels".formatted(MAX_NESTING_DEPTH)));
        }
        if (root == null) {
            return new Read(new YamlDocument(null, Map.of("", new SourcePosition(1, 1)), Map.of()));
        }
        Walker walker = new Walker(new ScalarConstructor(options));
        Object value = walker.walk(root, "", 0);
        if (!walker.violations.isEmpty()) {
            return new Unreadable(List.copyOf(walker.violations));
        }
        return new Read(new YamlDocument(value, Map.copyOf(walker.positions), Map.copyOf(walker.scalarTexts)));
    }

    private static LoaderOptions loaderOptions() {
        LoaderOptions options = new LoaderOptions();
        options.setCodePointLimit(MAX_DOCUMENT_BYTES);
        options.setMaxAliasesForCollections(MAX_ALIASES);
        options.setNestingDepthLimit(MAX_NESTING_DEPTH);
        options.setAllowRecursiveKeys(false);
        options.setAllowDuplicateKeys(true); // duplicates are reported by the walker, with their place
        options.setTagInspector(tag -> false);
        return options;
    }

    private static Unreadable unreadable(Violation violation) {
        return new Unreadable(List.of(violation));
    }

    private static Violation syntaxError(MarkedYAMLException e, String text, LoaderOptions options) {
        Mark mark = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
        String problem = e.getProblem() != null ? e.getProblem() : e.getMessage();
        if (problem != null && (problem.contains("Nesting Depth") || problem.contains("aliases"))) {
            return limitOrSyntax(e);
        }
        if (problem != null && problem.contains("Global tag is not allowed")) {
            Violation refused = Violation.of("", ViolationCode.UNSUPPORTED_TAG,
                    "Expected plain YAML values, but found a tag that names a class: " + firstLine(problem));
            return mark == null ? refused : refused.at(new SourcePosition(mark.getLine() + 1, mark.getColumn() + 1));
        }
        return YamlSyntaxErrors.describe(e, text, options);
    }

    private static Violation limitOrSyntax(YAMLException e) {
        String message = String.valueOf(e.getMessage());
        if (message.contains("Nesting Depth")) {
            return Violation.of("", ViolationCode.TOO_LARGE, "Expected nesting of at most %d levels".formatted(MAX_NESTING_DEPTH));
        }
        if (message.contains("aliases")) {
            return Violation.of("", ViolationCode.TOO_LARGE, "Expected at most %d aliases to collections".formatted(MAX_ALIASES));
        }
        if (message.contains("code points")) {
            return Violation.of("", ViolationCode.TOO_LARGE, "Expected a process file of at most %d characters".formatted(MAX_DOCUMENT_BYTES));
        }
        return Violation.of("", ViolationCode.SYNTAX_ERROR, "Expected valid YAML, but " + firstLine(message));
    }

    private static String firstLine(String text) {
        if (text == null) {
            return "the file cannot be read";
        }
        int newline = text.indexOf('\n');
        return newline < 0 ? text : text.substring(0, newline);
    }

    /** Exposes SafeConstructor's scalar resolution (ints in every YAML notation, floats, booleans) and nothing else. */
    private static final class ScalarConstructor extends SafeConstructor {
        ScalarConstructor(LoaderOptions options) {
            super(options);
        }

        Object scalar(ScalarNode node) {
            return constructObject(node);
        }
    }

    private static final class Walker {
        private final ScalarConstructor constructor;
        private final Map<String, SourcePosition> positions = new HashMap<>();
        private final Map<String, String> scalarTexts = new HashMap<>();
        private final List<Violation> violations = new ArrayList<>();
        private int values;
        private long textChars;

        Walker(ScalarConstructor constructor) {
            this.constructor = constructor;
        }

        Object walk(Node node, String path, int depth) {
            positions.putIfAbsent(path, position(node));
            if (++values > MAX_VALUES) {
                if (values == MAX_VALUES + 1) {
                    violations.add(Violation.of("", ViolationCode.TOO_LARGE,
                            "Expected at most %d values once aliases are expanded".formatted(MAX_VALUES)));
                }
                return null;
            }
            if (depth > MAX_NESTING_DEPTH) {
                violations.add(Violation.of(path, ViolationCode.TOO_LARGE,
                        "Expected nesting of at most %d levels".formatted(MAX_NESTING_DEPTH)).at(position(node)));
                return null;
            }
            if (!STANDARD_TAGS.contains(node.getTag())) {
                violations.add(Violation.of(path, ViolationCode.UNSUPPORTED_TAG,
                        "Expected plain YAML values, but found the tag '%s'".formatted(node.getTag().getValue())).at(position(node)));
                return null;
            }
            if (!fitsItsTag(node)) {
                violations.add(Violation.of(path, ViolationCode.INVALID_TYPE, "Expected a value that fits its tag '%s', but found %s"
                        .formatted(tagName(node.getTag()), kind(node))).at(position(node)));
                return null;
            }
            if (node instanceof MappingNode mapping) {
                return walkMapping(mapping, path, depth);
            }
            if (node instanceof SequenceNode sequence) {
                List<Object> list = new ArrayList<>();
                List<Node> items = sequence.getValue();
                for (int i = 0; i < items.size(); i++) {
                    list.add(walk(items.get(i), path + "[" + i + "]", depth + 1));
                }
                return list;
            }
            ScalarNode scalar = (ScalarNode) node;
            if (!countText(scalar.getValue())) {
                return null;
            }
            scalarTexts.put(path, scalar.getValue());
            if (scalar.getTag().equals(Tag.TIMESTAMP)) {
                return scalar.getValue();
            }
            return scalar(scalar, path);
        }

        /** Counts text as it is read again through each alias; false once past {@link #MAX_TEXT_CHARS}, reported once. */
        private boolean countText(String text) {
            boolean fitted = textChars <= MAX_TEXT_CHARS;
            textChars += text.length();
            if (textChars <= MAX_TEXT_CHARS) {
                return true;
            }
            if (fitted) {
                violations.add(Violation.of("", ViolationCode.TOO_LARGE,
                        "Expected at most %d characters of text once aliases are expanded".formatted(MAX_TEXT_CHARS)));
            }
            return false;
        }

        /**
         * The scalar's value. An explicit tag can name a type the text is not ({@code !!int abc}, {@code !!bool maybe}):
         * SafeConstructor then throws or answers null, and the file gets a violation at that place instead.
         */
        private Object scalar(ScalarNode scalar, String path) {
            boolean number = scalar.getTag().equals(Tag.INT) || scalar.getTag().equals(Tag.FLOAT);
            if (number && scalar.getValue().length() > MAX_NUMBER_CHARS) {
                violations.add(Violation.of(path, ViolationCode.TOO_LARGE, "Expected a number of at most %d characters, but it has %d: quote it if it is text"
                        .formatted(MAX_NUMBER_CHARS, scalar.getValue().length())).at(position(scalar)));
                return null;
            }
            try {
                Object value = constructor.scalar(scalar);
                if (value != null || scalar.getTag().equals(Tag.NULL)) {
                    return value;
                }
            } catch (RuntimeException notOfItsTag) {
                // reported below, with the place SafeConstructor's exception lacks
            }
            violations.add(Violation.of(path, ViolationCode.INVALID_TYPE, "Expected a value of type '%s', but found '%s'"
                    .formatted(tagName(scalar.getTag()), abbreviate(scalar.getValue()))).at(position(scalar)));
            return null;
        }

        /** A mapping carries {@code !!map}, a list {@code !!seq}, and a scalar any other tag. */
        private static boolean fitsItsTag(Node node) {
            Tag tag = node.getTag();
            if (node instanceof MappingNode) {
                return tag.equals(Tag.MAP);
            }
            if (node instanceof SequenceNode) {
                return tag.equals(Tag.SEQ);
            }
            return !tag.equals(Tag.MAP) && !tag.equals(Tag.SEQ);
        }

        private static String kind(Node node) {
            return node instanceof MappingNode ? "a mapping" : node instanceof SequenceNode ? "a list" : "a scalar";
        }

        private static String tagName(Tag tag) {
            String value = tag.getValue();
            return value.startsWith(Tag.PREFIX) ? "!!" + value.substring(Tag.PREFIX.length()) : value;
        }

        private static String abbreviate(String text) {
            return text.length() <= 100 ? text : text.substring(0, 100) + "...";
        }

        private Map<String, Object> walkMapping(MappingNode mapping, String path, int depth) {
            Map<String, Object> map = new LinkedHashMap<>();
            for (NodeTuple tuple : mapping.getValue()) {
                Node keyNode = tuple.getKeyNode();
                if (!(keyNode instanceof ScalarNode keyScalar) || !STANDARD_TAGS.contains(keyNode.getTag())) {
                    violations.add(Violation.of(path, ViolationCode.INVALID_TYPE, "Expected a plain text key").at(position(keyNode)));
                    continue;
                }
                String key = keyScalar.getValue();
                if (!countText(key)) {
                    return map;
                }
                String childPath = path.isEmpty() ? key : path + "." + key;
                if (map.containsKey(key)) {
                    violations.add(Violation.of(childPath, ViolationCode.DUPLICATE,
                            "Expected each key once, but '%s' appears again".formatted(key)).at(position(keyNode)));
                    continue;
                }
                map.put(key, walk(tuple.getValueNode(), childPath, depth + 1));
            }
            return map;
        }

        private static SourcePosition position(Node node) {
            Mark mark = node.getStartMark();
            return mark == null ? null : new SourcePosition(mark.getLine() + 1, mark.getColumn() + 1);
        }
    }
}
