package dev.sopline.schemas.definition.fuzz;

import static dev.sopline.schemas.definition.fuzz.OddValues.pick;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.representer.Representer;

/**
 * Turns a valid process file into a broken one: the file is read into plain maps and lists, changed there (fields
 * removed, shapes swapped, odd values, references, nesting, shared and exploding aliases), written back as YAML,
 * then changed as text (duplicate keys, explicit tags, stray characters, invalid UTF-8). Every change is named, so
 * that a failing case reads as a recipe.
 */
final class ProcessFileMutator {

    /** A mutated file and the changes that made it. */
    record Mutant(byte[] bytes, List<String> changes) {
        String text() {
            return new String(bytes, StandardCharsets.UTF_8);
        }
    }

    private static final List<String> TAGS = List.of("!!int", "!!float", "!!bool", "!!null", "!!str", "!!map", "!!seq",
            "!!timestamp", "!!binary", "!!set", "!!omap", "!!pairs", "!local", "!<tag:example.com,2000:x>",
            "!!java.io.File", "!!merge");
    private static final List<String> STRAY_TEXT = List.of("\t", "{", "}", "[", "]", "&a ", "*a ", "*undefined ", "!", "%",
            "|", ">", "---\n", "...\n", "? ", ": ", "- ", "#", "'", "\"", "\\", "\r\n", "\n  - ", "\uFEFF", "<<: *a\n",
            "%YAML 1.1\n", "@", "`");

    private static final java.util.Set<String> BOUNDED_FIELDS = java.util.Set.of("engine", "version", "name", "id",
            "type", "confidence_threshold", "max_attempts", "multiplier", "initial_backoff", "timeout", "cron", "timezone",
            "secret_env", "encoding", "escalate_to", "allow_agent", "required");

    private final Random random;
    private final List<String> changes = new ArrayList<>();

    private ProcessFileMutator(Random random) {
        this.random = random;
    }

    static Mutant mutate(String seedText, Random random) {
        return new ProcessFileMutator(random).apply(seedText);
    }

    private Mutant apply(String seedText) {
        Object root = load(seedText);
        int treeChanges = random.nextInt(4);
        for (int i = 0; i < treeChanges; i++) {
            changeTree(root);
        }
        String text = dump(root);
        int textChanges = random.nextInt(3) == 0 ? 1 + random.nextInt(2) : 0;
        for (int i = 0; i < textChanges; i++) {
            text = changeText(text);
        }
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        if (random.nextInt(40) == 0) {
            bytes = breakEncoding(bytes);
        }
        return new Mutant(bytes, List.copyOf(changes));
    }

    private static Object load(String text) {
        return new Yaml(new SafeConstructor(new LoaderOptions())).load(text);
    }

    private String dump(Object root) {
        DumperOptions options = new DumperOptions();
        options.setDefaultFlowStyle(pick(random, List.of(DumperOptions.FlowStyle.BLOCK, DumperOptions.FlowStyle.FLOW,
                DumperOptions.FlowStyle.AUTO)));
        options.setAllowUnicode(random.nextBoolean());
        options.setSplitLines(false);
        options.setMaxSimpleKeyLength(1024);
        return new Yaml(new SafeConstructor(new LoaderOptions()), new Representer(options), options).dump(root);
    }

    // ---- changes to the tree ------------------------------------------------------------------------------------

    /** One place in the tree: an entry of a mapping or an element of a list. */
    private record Slot(String path, Object container, Object key) {
        @SuppressWarnings("unchecked")
        Object get() {
            return container instanceof Map<?, ?> map ? map.get(key) : ((List<Object>) container).get((Integer) key);
        }

        @SuppressWarnings("unchecked")
        void set(Object value) {
            if (container instanceof Map<?, ?> map) {
                ((Map<Object, Object>) map).put(key, value);
            } else {
                ((List<Object>) container).set((Integer) key, value);
            }
        }

        @SuppressWarnings("unchecked")
        void remove() {
            if (container instanceof Map<?, ?> map) {
                map.remove(key);
            } else {
                ((List<Object>) container).remove((int) (Integer) key);
            }
        }
    }

    private void changeTree(Object root) {
        List<Slot> slots = new ArrayList<>();
        collect(root, "", slots, Collections.newSetFromMap(new java.util.IdentityHashMap<>()));
        if (slots.isEmpty()) {
            return;
        }
        Slot slot = pick(random, slots);
        switch (random.nextInt(13)) {
            case 0, 1 -> {
                changes.add("remove " + slot.path());
                slot.remove();
            }
            case 2, 3 -> {
                Object value = OddValues.otherShape(random, slot.get());
                changes.add("swap the shape of " + slot.path() + " for " + describe(value));
                slot.set(value);
            }
            case 4 -> {
                Object value = OddValues.scalar(random);
                changes.add("set " + slot.path() + " to " + describe(value));
                slot.set(value);
            }
            case 5 -> {
                String reference = OddValues.reference(random);
                changes.add("set " + slot.path() + " to the reference " + describe(reference));
                slot.set(reference);
            }
            case 6 -> addField(slots);
            case 7 -> changeList(slots);
            case 8 -> {
                int depth = 1 + random.nextInt(70);
                changes.add("nest " + depth + " levels at " + slot.path());
                slot.set(nested(depth, slot.get()));
            }
            case 9 -> shareValue(slots, slot);
            case 10 -> {
                int levels = 2 + random.nextInt(9);
                int width = 2 + random.nextInt(9);
                changes.add("put an alias bomb of %d levels of %d aliases at %s".formatted(levels, width, slot.path()));
                slot.set(aliasBomb(levels, width));
            }
            case 11 -> renameKey(slots);
            default -> setBoundedField(slots);
        }
    }

    /** An edge value where the format sets a range or a syntax: thresholds, attempts, durations, versions, names. */
    private void setBoundedField(List<Slot> slots) {
        List<Slot> bounded = slots.stream().filter(slot -> BOUNDED_FIELDS.contains(String.valueOf(slot.key()))).toList();
        if (bounded.isEmpty()) {
            return;
        }
        Slot slot = pick(random, bounded);
        Object value = OddValues.edgeScalarFor(String.valueOf(slot.key()), random);
        changes.add("set " + slot.path() + " to " + describe(value));
        slot.set(value);
    }

    private void collect(Object node, String path, List<Slot> slots, java.util.Set<Object> seen) {
        if (!(node instanceof Map<?, ?> || node instanceof List<?>) || !seen.add(node)) {
            return;
        }
        if (node instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                String child = path.isEmpty() ? String.valueOf(entry.getKey()) : path + "." + entry.getKey();
                slots.add(new Slot(child, map, entry.getKey()));
                collect(entry.getValue(), child, slots, seen);
            }
        } else {
            List<?> list = (List<?>) node;
            for (int i = 0; i < list.size(); i++) {
                String child = path + "[" + i + "]";
                slots.add(new Slot(child, list, i));
                collect(list.get(i), child, slots, seen);
            }
        }
    }

    @SuppressWarnings("unchecked")
    private void addField(List<Slot> slots) {
        List<Slot> mappings = slots.stream().filter(slot -> slot.get() instanceof Map<?, ?>).toList();
        if (mappings.isEmpty()) {
            return;
        }
        Slot slot = pick(random, mappings);
        Object key = OddValues.key(random);
        Object value = random.nextBoolean() ? OddValues.scalar(random) : OddValues.otherShape(random, null);
        if (random.nextInt(6) == 0) {
            key = random.nextBoolean() ? null : List.of("a", "b");
        }
        changes.add("add %s: %s to %s".formatted(describe(key), describe(value), slot.path()));
        ((Map<Object, Object>) slot.get()).put(key, value);
    }

    @SuppressWarnings("unchecked")
    private void changeList(List<Slot> slots) {
        List<Slot> lists = slots.stream().filter(slot -> slot.get() instanceof List<?> list && !list.isEmpty()).toList();
        if (lists.isEmpty()) {
            return;
        }
        Slot slot = pick(random, lists);
        List<Object> list = (List<Object>) slot.get();
        switch (random.nextInt(3)) {
            case 0 -> {
                int index = random.nextInt(list.size());
                changes.add("duplicate %s[%d]".formatted(slot.path(), index));
                list.add(random.nextInt(list.size() + 1), deepCopy(list.get(index)));
            }
            case 1 -> {
                changes.add("shuffle " + slot.path());
                Collections.shuffle(list, random);
            }
            default -> {
                changes.add("make %s contain itself".formatted(slot.path()));
                list.add(list);
            }
        }
    }

    /** The same mapping or list in two places, which the YAML writer turns into an anchor and an alias. */
    private void shareValue(List<Slot> slots, Slot target) {
        List<Slot> collections = slots.stream().filter(slot -> slot.get() instanceof Map<?, ?> || slot.get() instanceof List<?>).toList();
        if (collections.isEmpty()) {
            return;
        }
        Slot source = pick(random, collections);
        changes.add("alias %s at %s".formatted(source.path(), target.path()));
        target.set(source.get());
    }

    @SuppressWarnings("unchecked")
    private void renameKey(List<Slot> slots) {
        List<Slot> entries = slots.stream().filter(slot -> slot.container() instanceof Map<?, ?>).toList();
        if (entries.isEmpty()) {
            return;
        }
        Slot slot = pick(random, entries);
        Map<Object, Object> map = (Map<Object, Object>) slot.container();
        Object newKey = random.nextBoolean() ? OddValues.key(random) : OddValues.text(random);
        changes.add("rename %s to %s".formatted(slot.path(), describe(newKey)));
        Map<Object, Object> renamed = new LinkedHashMap<>();
        map.forEach((key, value) -> renamed.put(java.util.Objects.equals(key, slot.key()) ? newKey : key, value));
        map.clear();
        map.putAll(renamed);
    }

    private Object nested(int depth, Object innermost) {
        Object value = innermost;
        for (int i = 0; i < depth; i++) {
            value = random.nextBoolean() ? new ArrayList<>(List.of(value)) : new LinkedHashMap<>(Map.of("n", value == null ? "" : value));
        }
        return value;
    }

    /** "Billion laughs": each level lists the previous one {@code width} times. */
    private static Object aliasBomb(int levels, int width) {
        Object level = new ArrayList<>(List.of("lol"));
        for (int i = 0; i < levels; i++) {
            List<Object> next = new ArrayList<>();
            for (int k = 0; k < width; k++) {
                next.add(level);
            }
            level = next;
        }
        return level;
    }

    /** A copy when the value can be copied through YAML; the value itself (an alias once written) otherwise. */
    private static Object deepCopy(Object value) {
        try {
            return load(new Yaml().dump(value));
        } catch (org.yaml.snakeyaml.error.YAMLException tooManyAliases) {
            return value;
        }
    }

    // ---- changes to the text ------------------------------------------------------------------------------------

    private String changeText(String text) {
        List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
        int line = random.nextInt(lines.size());
        switch (random.nextInt(5)) {
            case 0 -> {
                changes.add("repeat line %d: %s".formatted(line + 1, abbreviate(lines.get(line))));
                lines.add(line, lines.get(line));
            }
            case 1 -> {
                String tag = pick(random, TAGS);
                int colon = lines.get(line).indexOf(": ");
                if (colon < 0) {
                    return text;
                }
                changes.add("tag the value on line %d with %s".formatted(line + 1, tag));
                lines.set(line, lines.get(line).substring(0, colon + 2) + tag + " " + lines.get(line).substring(colon + 2));
            }
            case 2 -> {
                String stray = pick(random, STRAY_TEXT);
                int column = random.nextInt(lines.get(line).length() + 1);
                changes.add("insert %s at line %d column %d".formatted(describe(stray), line + 1, column + 1));
                lines.set(line, lines.get(line).substring(0, column) + stray + lines.get(line).substring(column));
            }
            case 3 -> {
                changes.add("cut the file after line " + (line + 1));
                return String.join("\n", lines.subList(0, line + 1)) + (random.nextBoolean() ? "\n" : "");
            }
            default -> {
                changes.add("use CRLF line ends");
                return text.replace("\n", "\r\n");
            }
        }
        return String.join("\n", lines);
    }

    private byte[] breakEncoding(byte[] bytes) {
        byte[] broken = bytes.clone();
        int index = random.nextInt(Math.max(1, broken.length));
        byte bad = pick(random, List.of((byte) 0xC3, (byte) 0xFF, (byte) 0x80, (byte) 0xED, (byte) 0x00));
        changes.add("write byte %02x at offset %d".formatted(bad, index));
        if (broken.length > 0) {
            broken[index] = bad;
        }
        return broken;
    }

    private static String describe(Object value) {
        if (value == null) {
            return "null";
        }
        String text = value instanceof String ? "\"" + value + "\"" : value.toString();
        return abbreviate(text.replace("\n", "\\n").replace("\r", "\\r"));
    }

    private static String abbreviate(String text) {
        return text.length() <= 60 ? text : text.substring(0, 57) + "... (" + text.length() + " chars)";
    }
}
