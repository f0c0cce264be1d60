package dev.sopline.schemas.definition.validation;

import dev.sopline.schemas.definition.CronSchedule;
import dev.sopline.schemas.definition.Durations;
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
import dev.sopline.schemas.definition.TriggerType;
import dev.sopline.schemas.reference.Reference;
import dev.sopline.schemas.reference.ReferenceEvaluator;
import dev.sopline.schemas.reference.ReferenceException;
import dev.sopline.schemas.reference.ReferenceRoot;
import dev.sopline.schemas.topic.Topics;
import dev.sopline.schemas.validation.Violation;
import dev.sopline.schemas.validation.ViolationCode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The rules that relate the fields of a bound process file to each other: supported version, unique names,
 * references to inputs and earlier steps only, the blocks each step type needs, cron, time zones and durations.
 * Returns every violation it finds; the caller adds line and column from the source.
 */
public final class DefinitionValidator {

    /** The teams (topics of automated steps) one process file may name. */
    public static final int MAX_TEAMS = 16;

    /** Names used in paths and references: letters, digits, {@code _} and {@code -}. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0,99}");
    private static final Pattern ENGINE_VERSION = Pattern.compile("(\\d+)\\.(\\d+)");
    private static final Pattern PROCESS_VERSION = Pattern.compile("\\d{1,9}\\.\\d{1,9}(\\.\\d{1,9})?");
    /** Process names that would shadow the fixed routes under {@code /sop/}. */
    private static final Set<String> RESERVED_PROCESS_NAMES =
            Set.of("instances", "processes", "steps", "metrics", "triggers", "webhooks", "events");

    /** Detail code: the file uses what a later {@code engine} version brings; {@code expected} lists the versions. */
    public static final String REQUIRES_VERSION = "requires_version";
    /** Detail code: a parallel block inside a branch of another. */
    public static final String NESTED_PARALLEL = "nested_parallel";
    /** The first file version with parallel blocks. */
    public static final String PARALLEL_VERSION = "0.2";

    private final List<Violation> violations = new ArrayList<>();
    /** Where each step is written, by its index in {@link ProcessDefinition#steps()}. */
    private List<Place> places = List.of();

    /** A step's field path and the index of its entry (itself, or its block) in {@code process.steps}. */
    private record Place(String path, int position) {}

    private DefinitionValidator() {}

    public static List<Violation> validate(ProcessFile file) {
        DefinitionValidator validator = new DefinitionValidator();
        validator.checkEngine(file.engine());
        if (file.process() != null) {
            validator.places = places(file.process());
            validator.checkBlocksAllowed(file.engine(), file.process());
            validator.checkProcess(file.process());
        }
        return List.copyOf(validator.violations);
    }

    /**
     * Where each step is written: {@code process.steps[i]} outside blocks, {@code
     * process.steps[i].parallel.branches[b].steps[k]} inside one. The binder keeps a place for every entry, malformed
     * ones too, so counting the entries gives the paths back.
     */
    private static List<Place> places(ProcessDefinition process) {
        Map<Integer, ParallelBlock> blockAt = new HashMap<>();
        process.blocks().forEach(block -> blockAt.put(block.position(), block));
        List<Place> places = new ArrayList<>();
        for (int position = 0; places.size() < process.steps().size(); position++) {
            ParallelBlock block = blockAt.get(position);
            if (block == null) {
                places.add(new Place("process.steps[%d]".formatted(position), position));
                continue;
            }
            for (int b = 0; b < block.branches().size(); b++) {
                for (int k = 0; k < block.branches().get(b).steps().size(); k++) {
                    places.add(new Place("process.steps[%d].parallel.branches[%d].steps[%d]".formatted(position, b, k), position));
                }
            }
        }
        return places;
    }

    private static String blockPath(ParallelBlock block) {
        return "process.steps[%d].parallel".formatted(block.position());
    }

    /** Parallel blocks came with file version 0.2; a 0.1 file keeps meaning what it meant when it was written. */
    private void checkBlocksAllowed(String engine, ProcessDefinition process) {
        if (engine == null || process.blocks().isEmpty()) {
            return;
        }
        var matcher = ENGINE_VERSION.matcher(engine);
        // The minor version is compared as text: it may have more digits than any number type holds.
        if (matcher.matches() && matcher.group(1).equals("0") && matcher.group(2).matches("0*[01]")) {
            for (ParallelBlock block : process.blocks()) {
                violations.add(new Violation(blockPath(block), REQUIRES_VERSION,
                        "Expected parallel blocks only in files of engine version %s or later, but this file declares '%s'"
                                .formatted(PARALLEL_VERSION, engine), List.of(PARALLEL_VERSION), null, null));
            }
        }
    }

    private void checkEngine(String engine) {
        if (engine == null) {
            return;
        }
        var matcher = ENGINE_VERSION.matcher(engine);
        if (!matcher.matches() || !matcher.group(1).equals("0")) {
            report("engine", ViolationCode.UNSUPPORTED_VERSION,
                    "Expected a file of wire-format version 0.x, but it declares '%s'".formatted(engine));
        }
    }

    private void checkProcess(ProcessDefinition process) {
        if (process.name() != null) {
            if (!NAME.matcher(process.name()).matches()) {
                report("process.name", ViolationCode.INVALID_NAME,
                        "Expected a name of letters, digits, '_' and '-' starting with a letter or digit, but got '%s'".formatted(process.name()));
            } else if (RESERVED_PROCESS_NAMES.contains(process.name())) {
                report("process.name", ViolationCode.INVALID_NAME,
                        "Expected a name other than the reserved %s, but got '%s'".formatted(RESERVED_PROCESS_NAMES.stream().sorted().toList(), process.name()));
            }
        }
        if (process.version() != null && !PROCESS_VERSION.matcher(process.version()).matches()) {
            report("process.version", ViolationCode.INVALID_VERSION,
                    "Expected a version such as '1.0' or '1.2.3', but got '%s'".formatted(process.version()));
        }
        checkInputs(process.inputs());
        checkOutputDeclarations(process.outputs(), "process.outputs");
        checkTrigger(process);
        checkSteps(process);
        checkProcessOutputs(process);
    }

    private void checkInputs(List<InputDeclaration> inputs) {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < inputs.size(); i++) {
            InputDeclaration input = inputs.get(i);
            String path = "process.inputs[%d]".formatted(i);
            checkName(input.name(), path + ".name", seen);
            checkEnumValues(input.type(), input.values(), path + ".values");
        }
    }

    private void checkOutputDeclarations(List<OutputDeclaration> outputs, String listPath) {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < outputs.size(); i++) {
            OutputDeclaration output = outputs.get(i);
            String path = "%s[%d]".formatted(listPath, i);
            checkName(output.name(), path + ".name", seen);
            checkEnumValues(output.type(), output.values(), path + ".values");
        }
    }

    private void checkName(String name, String path, Set<String> seen) {
        if (name == null) {
            return;
        }
        if (!NAME.matcher(name).matches()) {
            report(path, ViolationCode.INVALID_NAME,
                    "Expected a name of letters, digits, '_' and '-', but got '%s'".formatted(name));
        }
        if (!seen.add(name)) {
            report(path, ViolationCode.DUPLICATE, "Expected each name once, but '%s' is declared again".formatted(name));
        }
    }

    private void checkEnumValues(FieldType type, List<String> values, String path) {
        if (type == FieldType.ENUM && values.isEmpty()) {
            report(path, ViolationCode.REQUIRED, "Expected an enum to list its allowed values");
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < values.size(); i++) {
            if (!seen.add(values.get(i))) {
                report("%s[%d]".formatted(path, i), ViolationCode.DUPLICATE,
                        "Expected each allowed value once, but '%s' is listed again".formatted(values.get(i)));
            }
        }
    }

    private void checkTrigger(ProcessDefinition process) {
        Trigger trigger = process.trigger();
        if (trigger == null) {
            return;
        }
        if (trigger.type() == TriggerType.SCHEDULE) {
            if (trigger.cron() == null) {
                report("process.trigger.cron", ViolationCode.REQUIRED, "Expected a schedule trigger to declare a cron expression");
            } else {
                CronSchedule.cronProblem(trigger.cron()).ifPresent(problem -> report("process.trigger.cron", ViolationCode.INVALID_CRON, problem));
            }
            if (trigger.timezone() != null) {
                CronSchedule.timezoneProblem(trigger.timezone())
                        .ifPresent(problem -> report("process.trigger.timezone", ViolationCode.INVALID_TIMEZONE, problem));
            }
            for (Violation violation : InputValidator.validate(process.inputs(), trigger.inputs())) {
                violations.add(new Violation("process.trigger." + violation.field(), violation.code(), violation.message(),
                        violation.expected(), null, null));
            }
        }
        if (trigger.type() == TriggerType.WEBHOOK && trigger.auth() == null) {
            report("process.trigger.auth", ViolationCode.REQUIRED,
                    "Expected a webhook trigger to declare auth.secret_env, the variable holding its HMAC secret");
        }
        String secretEnv = trigger.auth() == null ? null : trigger.auth().secretEnv();
        if (secretEnv != null && ReservedEnvironmentNames.isReserved(secretEnv)) {
            report("process.trigger.auth.secret_env", ViolationCode.FORBIDDEN_SECRET_ENV,
                    "Expected secret_env to name a variable of its own, such as ONBOARDING_WEBHOOK_SECRET, but '%s' is reserved: %s"
                            .formatted(secretEnv, ReservedEnvironmentNames.describe()));
        }
    }

    private void checkSteps(ProcessDefinition process) {
        List<StepDefinition> steps = process.steps();
        Set<String> seenIds = new HashSet<>();
        Set<String> teams = new HashSet<>();
        List<ParallelBlock> blocks = process.blocks();
        int nextBlock = 0;
        for (int i = 0; i < steps.size(); i++) {
            StepDefinition step = steps.get(i);
            String path = places.get(i).path();
            // A block's id shares one namespace with the step ids, checked in the order they are written.
            while (nextBlock < blocks.size() && blocks.get(nextBlock).position() <= places.get(i).position()) {
                checkBlock(blocks.get(nextBlock++), seenIds);
            }
            checkName(step.id(), path + ".id", seenIds);
            checkOutputDeclarations(step.outputs(), path + ".outputs");
            if (step.timeout() != null && Durations.parse(step.timeout()).isEmpty()) {
                report(path + ".timeout", ViolationCode.INVALID_DURATION, durationMessage(step.timeout()));
            }
            checkHeartbeatTimeout(step, path);
            if (step.type() == StepType.AUTOMATED && (step.run() == null || step.run().isBlank())) {
                report(path + ".run", ViolationCode.REQUIRED, "Expected an automated step to name the work to run in 'run'");
            } else if (step.type() == StepType.AUTOMATED && teams.add(Topics.namespaceOf(step.run())) && teams.size() == MAX_TEAMS + 1) {
                // Each team has a topic of its own, which the engine creates on the broker every workspace shares.
                report(path + ".run", ViolationCode.LIMIT_REACHED, ("Expected the automated steps of one process to name at most %d teams "
                        + "(the part of 'run' before the first dot), each with a Kafka topic of its own, but this is the %dth")
                        .formatted(MAX_TEAMS, MAX_TEAMS + 1));
            }
            if (step.type() == StepType.JUDGMENT) {
                checkJudgment(step, path);
            }
            if (step.retry() != null) {
                checkRetry(step.retry(), path + ".retry");
            }
            for (Map.Entry<String, Object> input : step.inputs().entrySet()) {
                checkReferences(input.getValue(), path + ".inputs." + input.getKey(), process, i, false);
            }
            for (int k = 0; k < step.outputs().size(); k++) {
                OutputDeclaration output = step.outputs().get(k);
                if (output.isComputed()) {
                    checkReferences(output.value(), "%s.outputs[%d].value".formatted(path, k), process, i, step.type() == StepType.WEBHOOK);
                }
            }
        }
        while (nextBlock < blocks.size()) {
            checkBlock(blocks.get(nextBlock++), seenIds);
        }
    }

    private void checkBlock(ParallelBlock block, Set<String> seenIds) {
        String path = blockPath(block);
        checkName(block.id(), path + ".id", seenIds);
        Set<String> branchIds = new HashSet<>();
        for (int b = 0; b < block.branches().size(); b++) {
            checkName(block.branches().get(b).id(), "%s.branches[%d].id".formatted(path, b), branchIds);
        }
    }

    private void checkJudgment(StepDefinition step, String path) {
        JudgmentSettings judgment = step.judgment();
        if (judgment == null) {
            report(path + ".judgment", ViolationCode.REQUIRED,
                    "Expected a judgment step to declare a 'judgment' block with allow_agent and confidence_threshold");
            return;
        }
        if (!(judgment.confidenceThreshold() >= 0 && judgment.confidenceThreshold() <= 1)) { // NaN (.nan) too
            report(path + ".judgment.confidence_threshold", ViolationCode.OUT_OF_RANGE,
                    "Expected a confidence threshold between 0 and 1, but got %s".formatted(judgment.confidenceThreshold()));
        }
        if (step.outputs().isEmpty()) {
            report(path + ".outputs", ViolationCode.REQUIRED, "Expected a judgment step to declare the outputs it decides");
        }
    }

    private void checkRetry(RetryPolicy retry, String path) {
        if (retry.maxAttempts() < 1 || retry.maxAttempts() > RetryPolicy.MAX_ATTEMPTS) {
            report(path + ".max_attempts", ViolationCode.OUT_OF_RANGE,
                    "Expected between 1 and %d attempts, but got %d".formatted(RetryPolicy.MAX_ATTEMPTS, retry.maxAttempts()));
        }
        if (Durations.parse(retry.initialBackoff()).isEmpty()) {
            report(path + ".initial_backoff", ViolationCode.INVALID_DURATION, durationMessage(retry.initialBackoff()));
        }
        if (!(retry.multiplier() >= 1 && retry.multiplier() <= RetryPolicy.MAX_MULTIPLIER)) { // NaN (.nan) too
            report(path + ".multiplier", ViolationCode.OUT_OF_RANGE,
                    "Expected a multiplier between 1 and %s, but got %s".formatted((int) RetryPolicy.MAX_MULTIPLIER, retry.multiplier()));
        }
    }

    private void checkProcessOutputs(ProcessDefinition process) {
        for (int k = 0; k < process.outputs().size(); k++) {
            OutputDeclaration output = process.outputs().get(k);
            String path = "process.outputs[%d]".formatted(k);
            if (output.isComputed()) {
                checkReferences(output.value(), path + ".value", process, process.steps().size(), false);
            } else if (output.name() != null
                    && process.steps().stream().noneMatch(step -> step.output(output.name()).isPresent())) {
                report(path + ".name", ViolationCode.UNKNOWN_REFERENCE,
                        "Expected a step to declare an output named '%s', or the output to have a 'value'".formatted(output.name()));
            }
        }
    }

    /**
     * Checks every {@code ${...}} in {@code value} as used by the step at {@code stepIndex} (or, for process outputs,
     * after the last step): inputs must be declared, steps must come earlier and declare the output.
     */
    private void checkReferences(Object value, String path, ProcessDefinition process, int stepIndex, boolean callbackAllowed) {
        for (ReferenceException problem : ReferenceEvaluator.problemsIn(value)) {
            report(path, problem.code(), problem.getMessage());
        }
        List<Reference> references;
        try {
            references = ReferenceEvaluator.referencesIn(value);
        } catch (ReferenceException alreadyReported) {
            return;
        }
        for (Reference reference : references) {
            checkReference(reference, path, process, stepIndex, callbackAllowed);
        }
    }

    private void checkReference(Reference reference, String path, ProcessDefinition process, int stepIndex, boolean callbackAllowed) {
        String quoted = "'${" + reference.expression() + "}'";
        if (reference.root() == ReferenceRoot.INPUTS) {
            boolean declared = process.inputs().stream().anyMatch(input -> reference.firstName().equals(input.name()));
            if (!declared) {
                report(path, ViolationCode.UNKNOWN_REFERENCE,
                        "Expected %s to name a declared input, but there is no input '%s'".formatted(quoted, reference.firstName()));
            }
        } else if (reference.root() == ReferenceRoot.STEPS) {
            int target = process.indexOf(reference.stepId());
            if (target < 0) {
                report(path, ViolationCode.UNKNOWN_REFERENCE,
                        "Expected %s to name a step, but there is no step '%s'".formatted(quoted, reference.stepId()));
            } else if (inSiblingBranch(process, stepIndex, target)) {
                // Branches run side by side: whether the sibling's step has completed is a matter of timing.
                report(path, ViolationCode.UNKNOWN_REFERENCE,
                        "Expected %s to name a step of its own branch or one before the block, but '%s' is in branch '%s', which runs beside it"
                                .formatted(quoted, reference.stepId(), process.steps().get(target).branch()));
            } else if (target >= stepIndex) {
                report(path, ViolationCode.FORWARD_REFERENCE,
                        "Expected %s to name a step that comes earlier, but '%s' does not".formatted(quoted, reference.stepId()));
            } else if (process.steps().get(target).output(reference.firstName()).isEmpty()) {
                report(path, ViolationCode.UNKNOWN_REFERENCE,
                        "Expected %s to name an output of step '%s', but it declares no output '%s'"
                                .formatted(quoted, reference.stepId(), reference.firstName()));
            }
        } else if (reference.root() == ReferenceRoot.CALLBACK_PAYLOAD && !callbackAllowed) {
            report(path, ViolationCode.UNKNOWN_REFERENCE,
                    "Expected %s only in the outputs of a webhook step, where a callback payload exists".formatted(quoted));
        }
    }

    /** Whether the step at {@code target} is in another branch of the block holding the step at {@code stepIndex}. */
    private static boolean inSiblingBranch(ProcessDefinition process, int stepIndex, int target) {
        if (stepIndex >= process.steps().size()) {
            return false;
        }
        StepDefinition from = process.steps().get(stepIndex);
        StepDefinition to = process.steps().get(target);
        return from.block() != null && from.block().equals(to.block()) && !Objects.equals(from.branch(), to.branch());
    }

    private static String durationMessage(String text) {
        return "Expected a duration such as 30s, 15m, 4h or 7d, but got '%s'".formatted(text);
    }

    private void report(String field, String code, String message) {
        violations.add(Violation.of(field, code, message));
    }

    /**
     * A heartbeat moves an automated step's deadline, so it needs a step that a worker runs and a first deadline to
     * move: the step's {@code timeout}.
     */
    private void checkHeartbeatTimeout(StepDefinition step, String path) {
        if (step.heartbeatTimeout() == null) {
            return;
        }
        if (Durations.parse(step.heartbeatTimeout()).isEmpty()) {
            report(path + ".heartbeat_timeout", ViolationCode.INVALID_DURATION, durationMessage(step.heartbeatTimeout()));
        } else if (step.type() != StepType.AUTOMATED) {
            report(path + ".heartbeat_timeout", ViolationCode.UNKNOWN_FIELD, "Expected 'heartbeat_timeout' on an automated step only: no worker sends heartbeats for other steps");
        } else if (step.timeout() == null) {
            report(path + ".timeout", ViolationCode.REQUIRED, "Expected a 'timeout' on a step with a 'heartbeat_timeout': the first heartbeat must come before it");
        }
    }
}
