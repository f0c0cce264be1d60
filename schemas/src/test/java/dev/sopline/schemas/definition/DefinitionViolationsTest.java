package dev.sopline.schemas.definition;

import static dev.sopline.schemas.definition.ProcessFilesTest.violations;
import static org.assertj.core.api.Assertions.assertThat;

import static org.assertj.core.groups.Tuple.tuple;

import dev.sopline.schemas.validation.Violation;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** One test per violation code: the field path, the code, and where in the file it points. */
class DefinitionViolationsTest {

    private static Violation only(List<Violation> violations) {
        assertThat(violations).hasSize(1);
        return violations.get(0);
    }

    private static void assertViolation(Violation violation, String field, String code, int line, int column) {
        assertThat(violation.field()).isEqualTo(field);
        assertThat(violation.code()).isEqualTo(code);
        assertThat(violation.line()).as("line of %s", violation).isEqualTo(line);
        assertThat(violation.column()).as("column of %s", violation).isEqualTo(column);
        assertThat(violation.message()).isNotBlank();
    }

    @Test
    void shouldReportRequiredWhenStepsAreMissing() {
        List<Violation> violations = violations("""
                engine: "0.1"
                process:
                  name: p
                  version: "1.0"
                """);
        assertViolation(only(violations), "process.steps", "required", 3, 3);
    }

    @Test
    void shouldReportRequiredWhenStepIdIsMissing() {
        List<Violation> violations = violations("""
                engine: "0.1"
                process:
                  name: p
                  version: "1.0"
                  steps:
                    - type: form
                """);
        assertViolation(only(violations), "process.steps[0].id", "required", 6, 7);
    }

    @Test
    void shouldReportInvalidTypeWhenStepsIsAMapping() {
        List<Violation> violations = violations("""
                engine: "0.1"
                process:
                  name: p
                  version: "1.0"
                  steps:
                    id: a
                    type: form
                """);
        assertViolation(only(violations), "process.steps", "invalid_type", 6, 5);
    }

    @Test
    void shouldReportNotInEnumWithExpectedValuesWhenStepTypeIsUnknown() {
        List<Violation> violations = violations("""
                engine: "0.1"
                process:
                  name: p
                  version: "1.0"
                  steps:
                    - id: a
                      type: form
                    - id: b
                      type: robot
                """);
        Violation violation = only(violations);
        assertViolation(violation, "process.steps[1].type", "not_in_enum", 9, 13);
        assertThat(violation.expected()).containsExactly("form", "automated", "judgment", "webhook");
    }

    @Test
    void shouldReportDuplicateWhenTwoStepsShareAnId() {
        List<Violation> violations = violations("""
                engine: "0.1"
                process:
                  name: p
                  version: "1.0"
                  steps:
                    - id: a
                      type: form
                    - id: a
                      type: form
                """);
        assertViolation(only(violations), "process.steps[1].id", "duplicate", 8, 11);
    }

    @Test
    void shouldReportDuplicateWhenAKeyAppearsTwice() {
        List<Violation> violations = violations("""
                engine: "0.1"
                process:
                  name: p
                  name: q
                  version: "1.0"
                  steps:
                    - id: a
                      type: form
                """);
        assertViolation(only(violations), "process.name", "duplicate", 4, 3);
    }

    @Test
    void shouldReportUnknownReferenceWhenInputIsNotDeclared() {
        List<Violation> violations = violations("""
                engine: "0.1"
                process:
                  name: p
                  version: "1.0"
                  steps:
                    - id: a
                      type: form
                      inputs:
                        who: "${inputs.nobody}"
                """);
        assertViolation(only(violations), "process.steps[0].inputs.who", "unknown_reference", 9, 14);
    }

    @Test
    void shouldReportUnknownReferenceWhenStepOutputIsNotDeclared() {
        List<Violation> violations = violations("""
                engine: "0.1"
                process:
                  name: p
                  version: "1.0"
                  steps:
                    - id: a
                      type: form
                      outputs:
                        - name: ok
                    - id: b
                      type: form
                      inputs:
                        x: "${steps.a.outputs.missing}"
                """);
        assertViolation(only(violations), "process.steps[1].inputs.x", "unknown_reference", 13, 12);
    }

    @Test
    void shouldReportForwardReferenceWhenStepReadsALaterStep() {
        List<Violation> violations = violations("""
                engine: "0.1"
                process:
                  name: p
                  version: "1.0"
                  steps:
                    - id: a
                      type: form
                      inputs:
                        x: "${steps.b.outputs.ok}"
                    - id: b
                      type: form
                      outputs:
                        - name: ok
                """);
        assertViolation(only(violations), "process.steps[0].inputs.x", "forward_reference", 9, 12);
    }

    @Test
    void shouldReportForwardReferenceWhenStepReadsItself() {
        List<Violation> violations = violations("""
                engine: "0.1"
                process:
                  name: p
                  version: "1.0"
                  steps:
                    - id: a
                      type: form
                      inputs:
                        x: "${steps.a.outputs.ok}"
                      outputs:
                        - name: ok
                """);
        assertViolation(only(violations), "process.steps[0].inputs.x", "forward_reference", 9, 12);
    }

    @Test
    void shouldReportUnknownReferenceWhenCallbackPayloadIsReadOutsideAWebhookStep() {
        List<Violation> violations = violations("""
                engine: "0.1"
                process:
                  name: p
                  version: "1.0"
                  steps:
                    - id: a
                      type: form
                      outputs:
                        - name: ok
                          value: "${callback.payload.ok}"
                """);
        assertViolation(only(violations), "process.steps[0].outputs[0].value", "unknown_reference", 10, 18);
    }

    @Test
    void shouldReportInvalidReferenceWhenExpressionIsUnclosed() {
        List<Violation> violations = violations("""
                engine: "0.1"
                process:
                  name: p
                  version: "1.0"
                  inputs:
                    - name: who
                  steps:
                    - id: a
                      type: form
                      inputs:
                        x: "hello ${inputs.who"
                """);
        assertViolation(only(violations), "process.steps[0].inputs.x", "invalid_reference", 11, 12);
    }

    @Test
    void shouldReportUnsupportedVersionWhenEngineMajorIsNotZero() {
        List<Violation> violations = violations("""
                engine: "1.0"
                process:
                  name: p
                  version: "1.0"
                  steps:
                    - id: a
                      type: form
                """);
        assertViolation(only(violations), "engine", "unsupported_version", 1, 9);
    }

    @Test
    void shouldReportInvalidDurationWhenTimeoutHasNoUnit() {
        List<Violation> violations = violations("""
                engine: "0.1"
                process:
                  name: p
                  version: "1.0"
                  steps:
                    - id: a
                      type: form
                      timeout: 10
                """);
        assertViolation(only(violations), "process.steps[0].timeout", "invalid_duration", 8, 16);
    }

    @Test
    void shouldReportInvalidDurationWhenBackoffIsWeeks() {
        List<Violation> violations = violations("""
                engine: "0.1"
                process:
                  name: p
                  version: "1.0"
                  steps:
                    - id: a
                      type: automated
                      run: x
                      retry:
                        initial_backoff: 2w
                """);
        assertViolation(only(violations), "process.steps[0].retry.initial_backoff", "invalid_duration", 10, 26);
    }

    @Test
    void shouldReportInvalidCronWhenExpressionHasSixFields() {
        List<Violation> violations = violations("""
                engine: "0.1"
                process:
                  name: p
                  version: "1.0"
                  trigger:
                    type: schedule
                    cron: "0 0 9 * * 1"
                  steps:
                    - id: a
                      type: form
                """);
        assertViolation(only(violations), "process.trigger.cron", "invalid_cron", 7, 11);
    }

    @Test
    void shouldReportInvalidTimezoneWhenZoneIsUnknown() {
        List<Violation> violations = violations("""
                engine: "0.1"
                process:
                  name: p
                  version: "1.0"
                  trigger:
                    type: schedule
                    cron: "@daily"
                    timezone: Mars/Olympus
                  steps:
                    - id: a
                      type: form
                """);
        assertViolation(only(violations), "process.trigger.timezone", "invalid_timezone", 8, 15);
    }

    @Test
    void shouldReportInvalidInputsOfAScheduleTrigger() {
        List<Violation> violations = violations("""
                engine: "0.1"
                process:
                  name: p
                  version: "1.0"
                  trigger:
                    type: schedule
                    cron: "@hourly"
                    inputs:
                      region: mars
                  inputs:
                    - name: region
                      type: enum
                      values: [emea, apac]
                  steps:
                    - id: a
                      type: form
                """);
        Violation violation = only(violations);
        assertViolation(violation, "process.trigger.inputs.region", "not_in_enum", 9, 15);
        assertThat(violation.expected()).containsExactly("emea", "apac");
    }

    @Test
    void shouldReportRequiredWhenAutomatedStepHasNoRun() {
        List<Violation> violations = violations("""
                engine: "0.1"
                process:
                  name: p
                  version: "1.0"
                  steps:
                    - id: a
                      type: automated
                """);
        assertViolation(only(violations), "process.steps[0].run", "required", 6, 7);
    }

    @Test
    void shouldReportRequiredWhenJudgmentStepHasNoJudgmentBlock() {
        List<Violation> violations = violations("""
                engine: "0.1"
                process:
                  name: p
                  version: "1.0"
                  steps:
                    - id: a
                      type: judgment
                      outputs:
                        - name: ok
                """);
        assertViolation(only(violations), "process.steps[0].judgment", "required", 6, 7);
    }

    @Test
    void shouldReportOutOfRangeWhenConfidenceThresholdExceedsOne() {
        List<Violation> violations = violations("""
                engine: "0.1"
                process:
                  name: p
                  version: "1.0"
                  steps:
                    - id: a
                      type: judgment
                      judgment:
                        confidence_threshold: 1.5
                      outputs:
                        - name: ok
                """);
        assertViolation(only(violations), "process.steps[0].judgment.confidence_threshold", "out_of_range", 9, 31);
    }

    @Test
    void shouldReportInvalidTypeWhenAllowAgentIsText() {
        List<Violation> violations = violations("""
                engine: "0.1"
                process:
                  name: p
                  version: "1.0"
                  steps:
                    - id: a
                      type: judgment
                      judgment:
                        allow_agent: maybe
                      outputs:
                        - name: ok
                """);
        assertViolation(only(violations), "process.steps[0].judgment.allow_agent", "invalid_type", 9, 22);
    }

    @Test
    void shouldReportUnknownFieldWhenAKeyIsMisspelt() {
        List<Violation> violations = violations("""
                engine: "0.1"
                process:
                  name: p
                  version: "1.0"
                  steps:
                    - id: a
                      type: form
                      timout: 3d
                """);
        assertViolation(only(violations), "process.steps[0].timout", "unknown_field", 8, 15);
    }

    @Test
    void shouldReportInvalidNameWhenProcessNameShadowsARoute() {
        List<Violation> violations = violations("""
                engine: "0.1"
                process:
                  name: instances
                  version: "1.0"
                  steps:
                    - id: a
                      type: form
                """);
        assertViolation(only(violations), "process.name", "invalid_name", 3, 9);
    }

    @Test
    void shouldReportInvalidVersionWhenVersionIsNotNumeric() {
        List<Violation> violations = violations("""
                engine: "0.1"
                process:
                  name: p
                  version: latest
                  steps:
                    - id: a
                      type: form
                """);
        assertViolation(only(violations), "process.version", "invalid_version", 4, 12);
    }

    @Test
    void shouldReportRequiredWhenEnumHasNoValues() {
        List<Violation> violations = violations("""
                engine: "0.1"
                process:
                  name: p
                  version: "1.0"
                  inputs:
                    - name: level
                      type: enum
                  steps:
                    - id: a
                      type: form
                """);
        assertViolation(only(violations), "process.inputs[0].values", "required", 6, 7);
    }

    @Test
    void shouldReportUnknownReferenceWhenProcessOutputIsDeclaredByNoStep() {
        List<Violation> violations = violations("""
                engine: "0.1"
                process:
                  name: p
                  version: "1.0"
                  outputs:
                    - name: total
                  steps:
                    - id: a
                      type: form
                """);
        assertViolation(only(violations), "process.outputs[0].name", "unknown_reference", 6, 13);
    }

    @Test
    void shouldReportEveryViolationAtOnceWhenFileHasSeveralProblems() {
        List<Violation> violations = violations("""
                engine: "3.0"
                process:
                  version: "1.0"
                  steps:
                    - id: a
                      type: robot
                    - id: b
                      type: automated
                      timeout: soon
                """);
        assertThat(violations).extracting(Violation::field, Violation::code).containsExactlyInAnyOrder(
                org.assertj.core.groups.Tuple.tuple("process.name", "required"),
                org.assertj.core.groups.Tuple.tuple("process.steps[0].type", "not_in_enum"),
                org.assertj.core.groups.Tuple.tuple("engine", "unsupported_version"),
                org.assertj.core.groups.Tuple.tuple("process.steps[1].timeout", "invalid_duration"),
                org.assertj.core.groups.Tuple.tuple("process.steps[1].run", "required"));
    }

    private static String webhookProcessWithSecretEnv(String secretEnv) {
        return """
                engine: "0.1"
                process:
                  name: p
                  version: "1.0"
                  trigger:
                    type: webhook
                    auth:
                      secret_env: %s
                  steps:
                    - id: a
                      type: form
                """.formatted(secretEnv);
    }

    @ParameterizedTest
    @ValueSource(strings = {"SOP_BOOTSTRAP_TOKEN", "KAFKA_BOOTSTRAP_SERVERS", "JAVA_TOOL_OPTIONS", "SPRING_PROFILES_ACTIVE",
            "HOME", "PATH", "USER", "PWD", "HOSTNAME", "SHELL", "LANG", "home", "Path", "sop_bootstrap_token", "Kafka_x"})
    void shouldReportForbiddenSecretEnvWhenWebhookSecretNamesAPlatformOrProcessVariable(String secretEnv) {
        List<Violation> violations = violations(webhookProcessWithSecretEnv(secretEnv));
        Violation violation = only(violations);
        assertViolation(violation, "process.trigger.auth.secret_env", "forbidden_secret_env", 8, 19);
        assertThat(violation.message()).contains(secretEnv, "ONBOARDING_WEBHOOK_SECRET", "SOP_", "KAFKA_", "JAVA_", "SPRING_", "PATH");
    }

    @ParameterizedTest
    @ValueSource(strings = {"ONBOARDING_WEBHOOK_SECRET", "PATHWAY_SECRET", "MY_SOP_SECRET", "HOME_OFFICE_HOOK", "SOPHIE_SECRET"})
    void shouldAcceptSecretEnvWhenItOnlyResemblesAReservedName(String secretEnv) {
        assertThat(ProcessFiles.load(webhookProcessWithSecretEnv(secretEnv).getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(ProcessFiles.Loaded.class);
    }

    @Test
    void shouldReportRequiredIdWhenALaterStepReadsAStepWithoutId() {
        List<Violation> violations = violations("""
                engine: "0.1"
                process:
                  name: noid
                  version: "1.0"
                  steps:
                    - type: form
                      outputs: [{name: a}]
                    - id: second
                      type: form
                      inputs: {x: "${steps.first.outputs.a}"}
                      outputs: [{name: b}]
                """);
        assertThat(violations).extracting(Violation::field, Violation::code, Violation::line, Violation::column).containsExactly(
                tuple("process.steps[0].id", "required", 6, 7),
                tuple("process.steps[1].inputs.x", "unknown_reference", 10, 19));
    }

    @Test
    void shouldReportRequiredNameWhenAProcessOutputLooksForAStepOutputWithoutName() {
        List<Violation> violations = violations("""
                engine: "0.1"
                process:
                  name: p
                  version: "1.0"
                  outputs:
                    - name: total
                  steps:
                    - id: a
                      type: form
                      outputs:
                        - type: number
                    - id: b
                      type: form
                      inputs: {x: "${steps.a.outputs.total}"}
                """);
        assertThat(violations).extracting(Violation::field, Violation::code, Violation::line, Violation::column).containsExactly(
                tuple("process.steps[0].outputs[0].name", "required", 11, 11),
                tuple("process.steps[1].inputs.x", "unknown_reference", 14, 19),
                tuple("process.outputs[0].name", "unknown_reference", 6, 13));
    }

    @ParameterizedTest
    @ValueSource(strings = {".nan", "-.inf", "1.0000001"})
    void shouldReportOutOfRangeWhenConfidenceThresholdIsNotBetweenZeroAndOne(String threshold) {
        List<Violation> violations = violations("""
                engine: "0.1"
                process:
                  name: p
                  version: "1.0"
                  steps:
                    - id: a
                      type: judgment
                      judgment: {confidence_threshold: %s}
                      outputs: [{name: decision}]
                """.formatted(threshold));
        assertViolation(only(violations), "process.steps[0].judgment.confidence_threshold", "out_of_range", 8, 40);
    }

    @ParameterizedTest
    @ValueSource(strings = {"max_attempts: 4294967297", "max_attempts: 18446744073709551617", "max_attempts: .inf",
            "multiplier: .nan", "multiplier: .inf"})
    void shouldReportOutOfRangeWhenRetrySettingWouldWrapOrIsNotANumber(String setting) {
        List<Violation> violations = violations("""
                engine: "0.1"
                process:
                  name: p
                  version: "1.0"
                  steps:
                    - id: a
                      type: automated
                      run: x
                      retry: {%s}
                """.formatted(setting));
        String field = setting.substring(0, setting.indexOf(':'));
        assertViolation(only(violations), "process.steps[0].retry." + field, "out_of_range", 9, 17 + field.length());
    }

    @Test
    void shouldReportInvalidTypeWhenOutputRequiredIsText() {
        List<Violation> violations = violations("""
                engine: "0.1"
                process:
                  name: p
                  version: "1.0"
                  steps:
                    - id: a
                      type: form
                      outputs:
                        - name: comment
                          required: "no"
                """);
        assertViolation(only(violations), "process.steps[0].outputs[0].required", "invalid_type", 10, 21);
    }

    @Test
    void shouldReportUnknownFieldWhenAProcessOutputSaysRequired() {
        List<Violation> violations = violations("""
                engine: "0.1"
                process:
                  name: p
                  version: "1.0"
                  outputs:
                    - name: comment
                      required: false
                  steps:
                    - id: a
                      type: form
                      outputs:
                        - name: comment
                """);
        assertViolation(only(violations), "process.outputs[0].required", "unknown_field", 7, 17);
    }
}
