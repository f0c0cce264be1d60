package dev.sopline.schemas.definition;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.schemas.definition.ProcessFiles.Invalid;
import dev.sopline.schemas.definition.ProcessFiles.Loaded;
import dev.sopline.schemas.validation.Violation;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProcessFilesTest {

    static byte[] fixture(String name) {
        try (InputStream in = ProcessFilesTest.class.getResourceAsStream("/definitions/" + name)) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static ProcessFile loaded(byte[] bytes) {
        ProcessFiles.LoadResult result = ProcessFiles.load(bytes);
        assertThat(result).as("violations: %s", result).isInstanceOf(Loaded.class);
        return ((Loaded) result).file();
    }

    static List<Violation> violations(String yaml) {
        ProcessFiles.LoadResult result = ProcessFiles.load(yaml.getBytes(StandardCharsets.UTF_8));
        assertThat(result).isInstanceOf(Invalid.class);
        return ((Invalid) result).violations();
    }

    @Test
    void shouldBindEveryFieldWhenFileIsValid() {
        // when
        ProcessFile file = loaded(fixture("expense-approval.yaml"));

        // then
        ProcessDefinition process = file.process();
        assertThat(file.engine()).isEqualTo("0.1");
        assertThat(process.name()).isEqualTo("expense-approval");
        assertThat(process.version()).isEqualTo("1.0");
        assertThat(process.owner()).isEqualTo("finance");
        assertThat(process.trigger().type()).isEqualTo(TriggerType.API);
        assertThat(process.inputs()).extracting(InputDeclaration::name).containsExactly("employee", "amount", "category");
        assertThat(process.inputs().get(1).type()).isEqualTo(FieldType.NUMBER);
        assertThat(process.inputs().get(2).values()).containsExactly("travel", "meals", "equipment");
        assertThat(process.steps()).extracting(StepDefinition::id).containsExactly("review", "policy", "pay", "bank-confirmation");

        StepDefinition review = process.steps().get(0);
        assertThat(review.type()).isEqualTo(StepType.FORM);
        assertThat(review.timeoutDuration()).contains(Duration.ofDays(3));
        assertThat(review.inputs()).containsEntry("summary", "${inputs.employee} claims ${inputs.amount} for ${inputs.category}");

        JudgmentSettings judgment = process.steps().get(1).judgment();
        assertThat(judgment).isEqualTo(new JudgmentSettings(true, 0.7, "human", "Check the claim against the travel policy."));

        StepDefinition pay = process.steps().get(2);
        assertThat(pay.run()).isEqualTo("billing.pay");
        assertThat(pay.retryOrDefault()).isEqualTo(new RetryPolicy(5, "2s", 3.0));
        assertThat(pay.retryOrDefault().backoffAfter(2)).isEqualTo(Duration.ofSeconds(6));

        StepDefinition webhook = process.steps().get(3);
        assertThat(webhook.timeoutDuration()).contains(Duration.ofDays(2));
        assertThat(webhook.outputs().get(0).value()).isEqualTo("${callback.payload.status}");
    }

    @Test
    void shouldApplyDefaultsWhenOptionalBlocksAreAbsent() {
        // given
        String yaml = """
                engine: 0.1
                process:
                  name: tiny
                  version: 1.10
                  steps:
                    - id: call
                      type: webhook
                    - id: work
                      type: automated
                      run: do.it
                """;

        // when
        ProcessDefinition process = loaded(yaml.getBytes(StandardCharsets.UTF_8)).process();

        // then
        assertThat(process.version()).as("unquoted numbers keep their text").isEqualTo("1.10");
        assertThat(process.trigger()).isEqualTo(Trigger.API);
        assertThat(process.steps().get(0).timeoutDuration()).contains(Duration.ofDays(7));
        assertThat(process.steps().get(1).timeoutDuration()).isEmpty();
        assertThat(process.steps().get(1).retryOrDefault()).isEqualTo(new RetryPolicy(3, "1s", 2.0));
        assertThat(process.steps().get(1).retryOrDefault().backoffAfter(1)).isEqualTo(Duration.ofSeconds(1));
        assertThat(process.steps().get(1).retryOrDefault().backoffAfter(2)).isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void shouldBindStepOutputAsOptionalOnlyWhenItSaysRequiredFalse() {
        // given
        String yaml = """
                engine: "0.1"
                process:
                  name: review
                  version: "1.0"
                  steps:
                    - id: review
                      type: form
                      outputs:
                        - name: decision
                        - name: comment
                          required: false
                        - name: reviewer
                          required: true
                """;

        // when
        List<OutputDeclaration> outputs = loaded(yaml.getBytes(StandardCharsets.UTF_8)).process().steps().get(0).outputs();

        // then
        assertThat(outputs).extracting(OutputDeclaration::name, OutputDeclaration::required).containsExactly(
                org.assertj.core.groups.Tuple.tuple("decision", true),
                org.assertj.core.groups.Tuple.tuple("comment", false),
                org.assertj.core.groups.Tuple.tuple("reviewer", true));
    }

    @Test
    void shouldBindOutputLabelsWhenDeclared() {
        // given
        String yaml = """
                engine: "0.1"
                process:
                  name: review
                  version: "1.0"
                  outputs:
                    - name: decision
                      label: Final decision
                  steps:
                    - id: review
                      type: form
                      outputs:
                        - name: decision
                          label: Manager's decision
                        - name: comment
                """;

        // when
        ProcessDefinition process = loaded(yaml.getBytes(StandardCharsets.UTF_8)).process();

        // then
        assertThat(process.outputs().get(0).label()).isEqualTo("Final decision");
        assertThat(process.steps().get(0).outputs()).extracting(OutputDeclaration::label).containsExactly("Manager's decision", null);
    }

    @Test
    void shouldBindScheduleTriggerWhenDeclared() {
        // when
        ProcessDefinition process = loaded(fixture("daily-report.yaml")).process();

        // then
        assertThat(process.trigger().type()).isEqualTo(TriggerType.SCHEDULE);
        assertThat(process.trigger().cron()).isEqualTo("0 9 * * 1-5");
        assertThat(process.trigger().timezoneOrDefault()).isEqualTo("Europe/Paris");
        assertThat(process.trigger().inputs()).isEqualTo(Map.of("region", "emea"));
    }

    @Test
    void shouldBindWebhookTriggerAuthWhenDeclared() {
        // when
        ProcessDefinition process = loaded(fixture("onboarding-webhook.yaml")).process();

        // then
        assertThat(process.trigger().auth())
                .isEqualTo(new TriggerAuth("ONBOARDING_SECRET", "X-Signature", "", "base64", "X-Delivery-Id"));
    }

    @Test
    void shouldUseDefaultSignatureSettingsWhenAuthNamesOnlyTheSecret() {
        // given
        String yaml = """
                engine: "0.1"
                process:
                  name: hook
                  version: "1.0"
                  trigger:
                    type: webhook
                    auth:
                      secret_env: HOOK_SECRET
                  steps:
                    - id: ask
                      type: form
                """;

        // when
        TriggerAuth auth = loaded(yaml.getBytes(StandardCharsets.UTF_8)).process().trigger().auth();

        // then
        assertThat(auth).isEqualTo(new TriggerAuth("HOOK_SECRET", "X-Hub-Signature-256", "sha256=", "hex", null));
    }
}
