package dev.sopline.schemas.definition.yaml;

import static dev.sopline.schemas.definition.yaml.FieldReader.child;
import static dev.sopline.schemas.definition.yaml.FieldReader.item;

import dev.sopline.schemas.definition.FieldType;
import dev.sopline.schemas.definition.InputDeclaration;
import dev.sopline.schemas.definition.JudgmentSettings;
import dev.sopline.schemas.definition.OutputDeclaration;
import dev.sopline.schemas.definition.ParallelBlock;
import dev.sopline.schemas.definition.ProcessDefinition;
import dev.sopline.schemas.definition.ProcessFile;
import dev.sopline.schemas.definition.RetryPolicy;
import dev.sopline.schemas.definition.StepDefinition;
import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.definition.Trigger;
import dev.sopline.schemas.definition.TriggerAuth;
import dev.sopline.schemas.definition.TriggerType;
import dev.sopline.schemas.definition.validation.DefinitionValidator;
import dev.sopline.schemas.validation.ViolationCode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Binds a {@link YamlDocument} to the {@link ProcessFile} model, reporting every missing field, wrong type, unknown
 * field and value outside an enumeration. Rules that relate fields to each other live in the validator.
 */
final class ProcessFileBinder {

    private static final Set<String> FILE_FIELDS = Set.of("engine", "process");
    private static final Set<String> PROCESS_FIELDS =
            Set.of("name", "version", "owner", "description", "trigger", "inputs", "outputs", "steps");
    private static final Set<String> TRIGGER_FIELDS = Set.of("type", "cron", "timezone", "inputs", "auth");
    private static final Set<String> AUTH_FIELDS = Set.of("secret_env", "header", "prefix", "encoding", "delivery_header", "dedupe_body");
    private static final Set<String> INPUT_FIELDS = Set.of("name", "type", "required", "values", "description");
    private static final Set<String> OUTPUT_FIELDS = Set.of("name", "type", "values", "value", "description", "label");
    /** A step's outputs may also say whether a submit must carry them; the process's outputs are never submitted. */
    private static final Set<String> STEP_OUTPUT_FIELDS = Set.of("name", "type", "values", "value", "description", "label", "required");
    private static final Set<String> STEP_FIELDS =
            Set.of("id", "name", "type", "timeout", "run", "inputs", "outputs", "judgment", "retry", "heartbeat_timeout");
    private static final Set<String> JUDGMENT_FIELDS = Set.of("allow_agent", "confidence_threshold", "escalate_to", "instructions");
    private static final Set<String> RETRY_FIELDS = Set.of("max_attempts", "initial_backoff", "multiplier");
    /** An entry of {@code steps} that is a block holds nothing but its {@code parallel} key. */
    private static final String PARALLEL = "parallel";
    private static final Set<String> BLOCK_ITEM_FIELDS = Set.of(PARALLEL);
    private static final Set<String> BLOCK_FIELDS = Set.of("id", "name", "branches");
    private static final Set<String> BRANCH_FIELDS = Set.of("id", "steps");

    private final FieldReader reader;

    ProcessFileBinder(FieldReader reader) {
        this.reader = reader;
    }

    Optional<ProcessFile> bind(Object root) {
        if (root == null) {
            reader.report("", ViolationCode.REQUIRED, "Expected a process file, but the document is empty");
            return Optional.empty();
        }
        Optional<Map<String, Object>> file = reader.map(root, "", true);
        if (file.isEmpty()) {
            return Optional.empty();
        }
        reader.rejectUnknownKeys(file.get(), "", FILE_FIELDS);
        String engine = reader.string(file.get(), "", "engine", true);
        ProcessDefinition process = reader.map(file.get().get("process"), "process", true).map(this::process).orElse(null);
        return Optional.of(new ProcessFile(engine, process));
    }

    private ProcessDefinition process(Map<String, Object> map) {
        String path = "process";
        reader.rejectUnknownKeys(map, path, PROCESS_FIELDS);
        if (map.get("steps") instanceof List<?> steps && steps.isEmpty()) {
            reader.report(child(path, "steps"), ViolationCode.REQUIRED, "Expected at least one step");
        }
        String name = reader.string(map, path, "name", true);
        String version = reader.string(map, path, "version", true);
        String owner = reader.string(map, path, "owner", false);
        String description = reader.string(map, path, "description", false);
        Trigger trigger = reader.map(map.get("trigger"), child(path, "trigger"), false).map(this::trigger).orElse(Trigger.API);
        List<InputDeclaration> inputs = items(map.get("inputs"), child(path, "inputs"), false).stream().map(this::input).toList();
        List<OutputDeclaration> outputs = items(map.get("outputs"), child(path, "outputs"), false).stream().map(this::processOutput).toList();
        List<StepDefinition> steps = new ArrayList<>();
        List<ParallelBlock> blocks = new ArrayList<>();
        List<Item> entries = items(map.get("steps"), child(path, "steps"), true);
        for (int position = 0; position < entries.size(); position++) {
            Item entry = entries.get(position);
            if (isBlock(entry)) {
                blocks.add(block(entry, position, steps));
            } else {
                steps.add(step(entry));
            }
        }
        return new ProcessDefinition(name, version, owner, description, trigger, inputs, outputs, steps, blocks);
    }

    private static boolean isBlock(Item entry) {
        return entry.map() != null && entry.map().containsKey(PARALLEL);
    }

    /** Binds a parallel block, adding its steps to {@code steps} branch by branch. */
    private ParallelBlock block(Item entry, int position, List<StepDefinition> steps) {
        reader.rejectUnknownKeys(entry.map(), entry.path(), BLOCK_ITEM_FIELDS);
        String path = child(entry.path(), PARALLEL);
        Optional<Map<String, Object>> found = reader.map(entry.map().get(PARALLEL), path, true);
        if (found.isEmpty()) {
            return new ParallelBlock(null, null, position, List.of());
        }
        Map<String, Object> map = found.get();
        reader.rejectUnknownKeys(map, path, BLOCK_FIELDS);
        String id = reader.string(map, path, "id", true);
        String branchesPath = child(path, "branches");
        List<Item> branchItems = items(map.get("branches"), branchesPath, true);
        if (map.get("branches") instanceof List<?> listed
                && (listed.size() < ParallelBlock.MIN_BRANCHES || listed.size() > ParallelBlock.MAX_BRANCHES)) {
            reader.report(branchesPath, ViolationCode.OUT_OF_RANGE, "Expected %d to %d branches, but the block has %d"
                    .formatted(ParallelBlock.MIN_BRANCHES, ParallelBlock.MAX_BRANCHES, listed.size()));
        }
        List<ParallelBlock.Branch> branches = new ArrayList<>();
        for (Item branchItem : branchItems) {
            branches.add(branch(branchItem, id, steps));
        }
        return new ParallelBlock(id, reader.string(map, path, "name", false), position, branches);
    }

    private ParallelBlock.Branch branch(Item item, String blockId, List<StepDefinition> steps) {
        if (item.map() == null) {
            return new ParallelBlock.Branch(null, List.of());
        }
        Map<String, Object> map = item.map();
        reader.rejectUnknownKeys(map, item.path(), BRANCH_FIELDS);
        String id = reader.string(map, item.path(), "id", true);
        String stepsPath = child(item.path(), "steps");
        if (map.get("steps") instanceof List<?> listed && listed.isEmpty()) {
            reader.report(stepsPath, ViolationCode.REQUIRED, "Expected at least one step in branch '%s'".formatted(id));
        }
        List<String> stepIds = new ArrayList<>();
        for (Item entry : items(map.get("steps"), stepsPath, true)) {
            StepDefinition step;
            if (isBlock(entry)) {
                reader.report(child(entry.path(), PARALLEL), DefinitionValidator.NESTED_PARALLEL,
                        "Expected steps in a branch, but blocks do not nest: move this block after '%s'".formatted(blockId));
                // Kept as an empty step, so that later steps keep their index in every field path.
                step = new StepDefinition(null, null, null, null, null, Map.of(), List.of(), null, null);
            } else {
                step = step(entry);
            }
            steps.add(step.inBranch(blockId, id));
            stepIds.add(step.id());
        }
        return new ParallelBlock.Branch(id, stepIds);
    }

    private Trigger trigger(Map<String, Object> map) {
        String path = "process.trigger";
        reader.rejectUnknownKeys(map, path, TRIGGER_FIELDS);
        TriggerType type = reader.oneOf(map, path, "type", true, TriggerType.wireNames(), TriggerType::fromWireName);
        TriggerAuth auth = reader.map(map.get("auth"), child(path, "auth"), false).map(this::auth).orElse(null);
        Map<String, Object> inputs = reader.map(map.get("inputs"), child(path, "inputs"), false).orElse(Map.of());
        return new Trigger(type == null ? TriggerType.API : type, reader.string(map, path, "cron", false),
                reader.string(map, path, "timezone", false), inputs, auth);
    }

    private TriggerAuth auth(Map<String, Object> map) {
        String path = "process.trigger.auth";
        reader.rejectUnknownKeys(map, path, AUTH_FIELDS);
        String encoding = reader.oneOf(map, path, "encoding", false, List.of(TriggerAuth.HEX, TriggerAuth.BASE64),
                value -> Optional.of(value).filter(v -> v.equals(TriggerAuth.HEX) || v.equals(TriggerAuth.BASE64)));
        return new TriggerAuth(reader.string(map, path, "secret_env", true), reader.string(map, path, "header", false),
                reader.string(map, path, "prefix", false), encoding, reader.string(map, path, "delivery_header", false),
                reader.bool(map, path, "dedupe_body"));
    }

    private InputDeclaration input(Item item) {
        if (item.map() == null) {
            return new InputDeclaration(null, FieldType.STRING, false, List.of(), null);
        }
        Map<String, Object> map = item.map();
        reader.rejectUnknownKeys(map, item.path(), INPUT_FIELDS);
        String name = reader.string(map, item.path(), "name", true);
        FieldType type = fieldType(map, item.path());
        Boolean required = reader.bool(map, item.path(), "required");
        return new InputDeclaration(name, type, Boolean.TRUE.equals(required),
                values(map, item.path()), reader.string(map, item.path(), "description", false));
    }

    private OutputDeclaration processOutput(Item item) {
        return output(item, OUTPUT_FIELDS);
    }

    private OutputDeclaration stepOutput(Item item) {
        return output(item, STEP_OUTPUT_FIELDS);
    }

    private OutputDeclaration output(Item item, Set<String> known) {
        if (item.map() == null) {
            return new OutputDeclaration(null, FieldType.STRING, List.of(), null, null);
        }
        Map<String, Object> map = item.map();
        reader.rejectUnknownKeys(map, item.path(), known);
        String name = reader.string(map, item.path(), "name", true);
        FieldType type = fieldType(map, item.path());
        Boolean required = reader.bool(map, item.path(), "required");
        return new OutputDeclaration(name, type, values(map, item.path()), map.get("value"),
                reader.string(map, item.path(), "description", false), reader.string(map, item.path(), "label", false), required);
    }

    private StepDefinition step(Item item) {
        if (item.map() == null) {
            return new StepDefinition(null, null, null, null, null, Map.of(), List.of(), null, null);
        }
        Map<String, Object> map = item.map();
        String path = item.path();
        reader.rejectUnknownKeys(map, path, STEP_FIELDS);
        String id = reader.string(map, path, "id", true);
        StepType type = reader.oneOf(map, path, "type", true, StepType.wireNames(), StepType::fromWireName);
        Map<String, Object> inputs = reader.map(map.get("inputs"), child(path, "inputs"), false).orElse(Map.of());
        List<OutputDeclaration> outputs =
                items(map.get("outputs"), child(path, "outputs"), false).stream().map(this::stepOutput).toList();
        JudgmentSettings judgment = reader.map(map.get("judgment"), child(path, "judgment"), false)
                .map(settings -> judgment(settings, child(path, "judgment"))).orElse(null);
        RetryPolicy retry = reader.map(map.get("retry"), child(path, "retry"), false)
                .map(settings -> retry(settings, child(path, "retry"))).orElse(null);
        // Kept even without id or type, so that later steps keep their index in every field path.
        return new StepDefinition(id, reader.string(map, path, "name", false), type,
                reader.string(map, path, "timeout", false), reader.string(map, path, "run", false), inputs, outputs, judgment, retry)
                .withHeartbeatTimeout(reader.string(map, path, "heartbeat_timeout", false));
    }

    private JudgmentSettings judgment(Map<String, Object> map, String path) {
        reader.rejectUnknownKeys(map, path, JUDGMENT_FIELDS);
        Boolean allowAgent = reader.bool(map, path, "allow_agent");
        Number threshold = reader.number(map, path, "confidence_threshold");
        String escalateTo = reader.oneOf(map, path, "escalate_to", false, List.of(JudgmentSettings.HUMAN),
                value -> Optional.of(value).filter(JudgmentSettings.HUMAN::equals));
        return new JudgmentSettings(
                allowAgent == null || allowAgent,
                threshold == null ? JudgmentSettings.DEFAULT_CONFIDENCE_THRESHOLD : threshold.doubleValue(),
                escalateTo == null ? JudgmentSettings.HUMAN : escalateTo,
                reader.string(map, path, "instructions", false));
    }

    private RetryPolicy retry(Map<String, Object> map, String path) {
        reader.rejectUnknownKeys(map, path, RETRY_FIELDS);
        Number maxAttempts = reader.number(map, path, "max_attempts");
        String initialBackoff = reader.string(map, path, "initial_backoff", false);
        Number multiplier = reader.number(map, path, "multiplier");
        if (maxAttempts != null && maxAttempts.doubleValue() != Math.rint(maxAttempts.doubleValue())) {
            reader.report(child(path, "max_attempts"), ViolationCode.INVALID_TYPE, "Expected a whole number of attempts");
        } else if (maxAttempts != null && Math.abs(maxAttempts.doubleValue()) > Integer.MAX_VALUE) {
            // Reported here because the model's int would wrap it (4294967297 reads as 1); smaller ones are the validator's.
            reader.report(child(path, "max_attempts"), ViolationCode.OUT_OF_RANGE,
                    "Expected between 1 and %d attempts, but got %s".formatted(RetryPolicy.MAX_ATTEMPTS, maxAttempts));
            maxAttempts = null;
        }
        return new RetryPolicy(
                maxAttempts == null ? RetryPolicy.DEFAULT.maxAttempts() : maxAttempts.intValue(),
                initialBackoff == null ? RetryPolicy.DEFAULT.initialBackoff() : initialBackoff,
                multiplier == null ? RetryPolicy.DEFAULT.multiplier() : multiplier.doubleValue());
    }

    private FieldType fieldType(Map<String, Object> map, String path) {
        FieldType type = reader.oneOf(map, path, "type", false, FieldType.wireNames(), FieldType::fromWireName);
        return type == null ? FieldType.STRING : type;
    }

    private List<String> values(Map<String, Object> map, String path) {
        String valuesPath = child(path, "values");
        List<Object> raw = reader.list(map.get("values"), valuesPath, false).orElse(List.of());
        List<String> values = new ArrayList<>();
        for (int i = 0; i < raw.size(); i++) {
            Object value = raw.get(i);
            if (value instanceof Map<?, ?> || value instanceof List<?> || value == null) {
                reader.report(item(valuesPath, i), ViolationCode.INVALID_TYPE, "Expected each allowed value to be text");
            } else {
                values.add(value instanceof String text ? text : String.valueOf(value));
            }
        }
        return values;
    }

    private List<Item> items(Object value, String path, boolean required) {
        List<Object> list = reader.list(value, path, required).orElse(List.of());
        List<Item> items = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            String itemPath = item(path, i);
            // A malformed entry still takes its place, so that later entries keep their index in every field path.
            items.add(new Item(itemPath, reader.map(list.get(i), itemPath, true).orElse(null)));
        }
        return items;
    }

    private record Item(String path, Map<String, Object> map) {}
}
