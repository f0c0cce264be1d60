package dev.sopline.engine.handler;

import dev.sopline.engine.api.view.ProcessVersions;
import dev.sopline.engine.api.view.ProcessVersions.PublishedVersion;
import dev.sopline.engine.decision.InstanceBudget;
import dev.sopline.engine.decision.JsonSize;
import dev.sopline.engine.state.Timer;
import dev.sopline.schemas.command.CommandReply;
import dev.sopline.schemas.command.ErrorCodes;
import dev.sopline.schemas.command.RegisterProcess;
import dev.sopline.schemas.command.RetireProcess;
import dev.sopline.schemas.command.StartInstance;
import dev.sopline.schemas.definition.CronSchedule;
import dev.sopline.schemas.definition.ProcessDefinition;
import dev.sopline.schemas.definition.Trigger;
import dev.sopline.schemas.definition.TriggerType;
import dev.sopline.schemas.event.HashedUlids;
import dev.sopline.schemas.validation.Violation;
import dev.sopline.schemas.validation.ViolationCode;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Registrations, retirements and schedule fires, decided on the partition that owns {@code <workspace>/<process>}, so that two
 * registrations of one version cannot both win and each schedule fire starts exactly one instance.
 */
public final class ProcessHandler {

    private final InstanceBudget budget;

    public ProcessHandler(InstanceBudget budget) {
        this.budget = budget;
    }

    public ProcessDecision register(RegisterProcess command, Optional<ProcessVersions> stored, Instant now) {
        ProcessDefinition definition = command.file().process();
        ProcessVersions versions = stored.orElse(ProcessVersions.empty(command.workspace(), definition.name()));
        Optional<PublishedVersion> existing = versions.version(definition.version());
        if (existing.isPresent()) {
            if (existing.get().source().equals(command.source())) {
                return ProcessDecision.reply(CommandReply.ok(command.commandId(), 201, registeredBody(definition)));
            }
            Violation violation = Violation.of("process.version", ViolationCode.VERSION_EXISTS,
                    "Expected a new version number for changed content, but version %s of '%s' is already published"
                            .formatted(definition.version(), definition.name()));
            return ProcessDecision.reply(CommandReply.invalid(command.commandId(), ErrorCodes.INVALID_DEFINITION,
                    violation.message(), List.of(violation)));
        }
        Optional<String> sameNumber = versions.versions().keySet().stream()
                .filter(version -> ProcessVersions.sameNumber(version, definition.version()))
                .findFirst();
        if (sameNumber.isPresent()) {
            // "1.0.0" beside "1.0": two keys for one number would leave which is the latest to the order of a listing.
            Violation violation = Violation.of("process.version", ViolationCode.VERSION_EXISTS,
                    "Expected a new version number, but %s is the same number as version %s of '%s', already published"
                            .formatted(definition.version(), sameNumber.get(), definition.name()));
            return ProcessDecision.reply(CommandReply.invalid(command.commandId(), ErrorCodes.INVALID_DEFINITION,
                    violation.message(), List.of(violation)));
        }
        Optional<CommandReply> unstartable = scheduleInputsOverBudget(command, definition);
        if (unstartable.isPresent()) {
            return ProcessDecision.reply(unstartable.get());
        }
        PublishedVersion published = new PublishedVersion(definition, command.source(), now);
        ProcessVersions record = ProcessVersions.single(command.workspace(), definition.name(), definition.version(), published);
        long recordBytes = JsonSize.of(record);
        if (recordBytes > InstanceBudget.RECORD_MAX_BYTES) {
            return ProcessDecision.reply(CommandReply.rejected(command.commandId(), 413, ErrorCodes.PAYLOAD_TOO_LARGE,
                    "Expected a process version to be stored within %d bytes, but version %s of '%s' takes %d"
                            .formatted(InstanceBudget.RECORD_MAX_BYTES, definition.version(), definition.name(), recordBytes)));
        }
        ProcessVersions updated = versions.with(definition.version(), published);
        // A version registered after the retirement (it was on its way) sets no schedule.
        boolean becomesLatest = updated.latest().map(latest -> latest.definition().version().equals(definition.version())).orElse(false)
                && !versions.retired();
        List<Timer> timers = becomesLatest ? nextFire(command.workspace(), definition, now).stream().toList() : List.of();
        return new ProcessDecision(Optional.of(record), Optional.of(CommandReply.ok(command.commandId(), 201, registeredBody(definition))),
                timers, List.of());
    }

    /**
     * Retires a process (its workspace is deleted): its schedule stops at the next fire, which finds the mark, and no
     * start of it is accepted from then on. Retired once for good: only a registration could bring a process back,
     * and nobody can register into a deleted workspace (its tokens are revoked), so there is no way back. The mark is
     * written even when no version is here yet, so a registration already on its way is retired too. Again: answered
     * the same, and nothing written once a version is here (before that, the mark is written again, harmlessly).
     */
    public ProcessDecision retire(RetireProcess command, Optional<ProcessVersions> stored, Instant now) {
        CommandReply retired = CommandReply.ok(command.commandId(), 200, Map.of("name", command.process(), "retired", true));
        if (stored.map(ProcessVersions::retired).orElse(false)) {
            return ProcessDecision.reply(retired);
        }
        return new ProcessDecision(Optional.of(ProcessVersions.retirement(command.workspace(), command.process(), now)), Optional.of(retired),
                List.of(), List.of());
    }

    /**
     * A schedule whose inputs alone pass the instance budget would be refused at every fire, with nobody to answer:
     * refused at registration instead, where someone reads the answer.
     */
    private Optional<CommandReply> scheduleInputsOverBudget(RegisterProcess command, ProcessDefinition definition) {
        if (definition.trigger().type() != TriggerType.SCHEDULE) {
            return Optional.empty();
        }
        long size = JsonSize.of(definition.trigger().inputs());
        if (!budget.exceededBy(size)) {
            return Optional.empty();
        }
        Violation violation = Violation.of("process.trigger.inputs", ViolationCode.TOO_LARGE,
                "Expected the schedule's inputs to fit an instance's %d bytes (SOP_INSTANCE_MAX_BYTES), but they take %d"
                        .formatted(budget.maxBytes(), size));
        return Optional.of(CommandReply.invalid(command.commandId(), ErrorCodes.INVALID_DEFINITION, violation.message(), List.of(violation)));
    }

    /**
     * A schedule timer fires: if its version is still the latest and still scheduled, one instance starts and the
     * next fire is set from now, so fires missed while the engine was down start one instance, not one per miss.
     * A retired process's schedule ends here: no instance, no next fire.
     */
    public ProcessDecision fire(Timer timer, Optional<ProcessVersions> stored, Instant now) {
        if (stored.map(ProcessVersions::retired).orElse(false)) {
            return ProcessDecision.nothing();
        }
        Optional<ProcessDefinition> latest = stored.flatMap(ProcessVersions::latest).map(PublishedVersion::definition);
        if (latest.isEmpty() || !latest.get().version().equals(timer.stepId())
                || latest.get().trigger().type() != TriggerType.SCHEDULE) {
            return ProcessDecision.nothing();
        }
        ProcessDefinition definition = latest.get();
        Map<String, Object> inputs = new LinkedHashMap<>(definition.trigger().inputs());
        StartInstance start = new StartInstance(null, timer.workspace(), scheduledInstanceId(timer), definition.name(), inputs, null,
                StartInstance.SCHEDULE, definition.version());
        return new ProcessDecision(Optional.empty(), Optional.empty(), nextFire(timer.workspace(), definition, now).stream().toList(),
                List.of(start));
    }

    /**
     * The instance a schedule fire starts is named by the fire itself: a ULID whose time is the fire's due time and
     * whose random part is a hash of the schedule, so a replay of the fire starts the same instance, not another.
     * Instance ids are not credentials; they only need to be unique.
     */
    static String scheduledInstanceId(Timer timer) {
        String fire = String.join("\n", timer.workspace(), timer.target(), timer.stepId(), timer.dueAt().toString());
        return HashedUlids.of(timer.dueAt().toEpochMilli(), fire);
    }

    private static Optional<Timer> nextFire(String workspace, ProcessDefinition definition, Instant now) {
        Trigger trigger = definition.trigger();
        if (trigger.type() != TriggerType.SCHEDULE) {
            return Optional.empty();
        }
        return CronSchedule.parse(trigger.cron(), trigger.timezoneOrDefault()).nextAfter(now)
                .map(due -> new Timer(due, Timer.Kind.SCHEDULE, workspace, definition.name(), definition.version(), 0));
    }

    private static Map<String, Object> registeredBody(ProcessDefinition definition) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", definition.name());
        body.put("version", definition.version());
        return body;
    }
}
