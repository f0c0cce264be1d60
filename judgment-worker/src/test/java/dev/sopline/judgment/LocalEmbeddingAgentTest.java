package dev.sopline.judgment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sopline.schemas.definition.FieldType;
import dev.sopline.schemas.definition.OutputDeclaration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The offline agent with the real all-MiniLM-L6-v2 model (quantized) shipped in its Maven artifact. */
class LocalEmbeddingAgentTest {

    private static final double THRESHOLD = 0.7;
    private static LocalEmbeddingAgent agent;

    @BeforeAll
    static void loadModel() {
        agent = SharedLocalAgent.get();
    }

    private static JudgmentRequest triage(String ticket) {
        return new JudgmentRequest("support", "Route the support ticket", "Choose the team that handles this ticket.",
                Map.of("ticket", ticket),
                List.of(new OutputDeclaration("team", FieldType.ENUM, List.of("billing", "shipping", "technical"), null, null)));
    }

    @Test
    void shouldPickTheObviousValueConfidentlyWhenTheInputsAreClear() throws Exception {
        AgentAnswer billing = agent.decide(triage("I was charged twice for my invoice, please refund the payment on my credit card"));
        AgentAnswer shipping = agent.decide(triage("My parcel never arrived, the delivery tracking number shows the package is lost"));

        assertThat(billing.outputs()).isEqualTo(Map.of("team", "billing"));
        assertThat(shipping.outputs()).isEqualTo(Map.of("team", "shipping"));
        assertThat(billing.confidence()).isGreaterThanOrEqualTo(THRESHOLD);
        assertThat(shipping.confidence()).isGreaterThanOrEqualTo(THRESHOLD);
        assertThat(billing.model()).isEqualTo("local/all-minilm-l6-v2-q");
        assertThat(billing.rationale()).contains("billing");
    }

    @Test
    void shouldHaveLowConfidenceWhenTheInputsSaySomethingUnrelated() throws Exception {
        AgentAnswer answer = agent.decide(triage("hello"));

        assertThat(answer.confidence()).isLessThan(THRESHOLD);
    }

    @Test
    void shouldLeaveAnExpenseThatTurnsOnItsAmountToAPersonWhateverTheManagerSaid() throws Exception {
        JudgmentRequest request = new JudgmentRequest("expense-approval", "Policy check",
                "Does this expense comply with the travel and expense policy? Meals over 100 are not compliant.",
                Map.of("category", "meals", "amount", 500, "manager_decision", "approved"),
                List.of(new OutputDeclaration("compliant", FieldType.ENUM, List.of("yes", "no"), null, null)));

        AgentAnswer answer = agent.decide(request);

        assertThat(answer.confidence()).isZero();
        assertThat(answer.outputs()).containsOnlyKeys("compliant");
        assertThat(answer.rationale()).contains("[amount]", "a person decides");
    }

    @Test
    void shouldRouteACrashToTheTechnicalTeamThoughItMentionsAnInvoice() throws Exception {
        JudgmentRequest request = new JudgmentRequest("support", "Route the support ticket",
                "Route the ticket to the team that can resolve it. billing: charges, refunds, invoices and payment methods. "
                        + "technical: errors, crashes, bugs and slowness of the app. shipping: deliveries and parcels.",
                Map.of("ticket", "App crashes on the invoice page"),
                List.of(new OutputDeclaration("team", FieldType.ENUM, List.of("billing", "shipping", "technical"), null, null)));

        AgentAnswer answer = agent.decide(request);

        assertThat(answer.outputs()).isEqualTo(Map.of("team", "technical"));
    }

    @Test
    void shouldRefuseWhenTheStepGivesNoInputs() {
        JudgmentRequest request = new JudgmentRequest("support", "Route the support ticket", "Choose the team.", Map.of(),
                List.of(new OutputDeclaration("team", FieldType.ENUM, List.of("billing", "shipping"), null, null)));

        assertThatThrownBy(() -> agent.decide(request)).isInstanceOf(UndecidableException.class).hasMessageContaining("no inputs");
    }

    @Test
    void shouldRefuseWhenAnOutputIsFreeText() {
        JudgmentRequest request = new JudgmentRequest("p", "Summarise", null, Map.of("text", "long"),
                List.of(new OutputDeclaration("summary", FieldType.STRING, List.of(), null, null)));

        assertThatThrownBy(() -> agent.decide(request)).isInstanceOf(UndecidableException.class).hasMessageContaining("summary");
    }

    @Test
    void shouldAnswerBooleansWithTrueOrFalse() throws Exception {
        JudgmentRequest request = new JudgmentRequest("p", "Is this urgent", null, Map.of("ticket", "Production is down, all customers affected"),
                List.of(new OutputDeclaration("urgent", FieldType.BOOLEAN, List.of(), null, null)));

        assertThat(agent.decide(request).outputs().get("urgent")).isInstanceOf(Boolean.class);
    }
}
