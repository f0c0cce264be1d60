package dev.sopline.schemas.reference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReferenceTest {

    private static final ReferenceContext CONTEXT = new ReferenceContext(
            Map.of("name", "Ada", "amount", 12.5, "count", 3, "urgent", true, "tags", List.of("a", "b"),
                    "address", Map.of("city", "Lyon")),
            Map.of("review", Map.of("verdict", "accept", "score", 3.0)),
            Map.of("repository", Map.of("name", "sopline"), "commits", List.of(Map.of("id", "c1"), Map.of("id", "c2"))),
            null);

    @Test
    void shouldReadEachRootWhenParsed() {
        assertThat(Reference.parse("inputs.name")).isEqualTo(new Reference("inputs.name", ReferenceRoot.INPUTS, null, List.of("name")));
        assertThat(Reference.parse(" steps.review.outputs.verdict "))
                .isEqualTo(new Reference("steps.review.outputs.verdict", ReferenceRoot.STEPS, "review", List.of("verdict")));
        assertThat(Reference.parse("trigger.payload.repository.name").path()).containsExactly("repository", "name");
        assertThat(Reference.parse("callback.payload.status").root()).isEqualTo(ReferenceRoot.CALLBACK_PAYLOAD);
    }

    @Test
    void shouldRefuseWithCodesWhenExpressionIsMalformed() {
        for (String bad : List.of("", "inputs", "inputs.", "inputs..x", "steps.review.verdict", "steps.review.outputs",
                "trigger.body.x", "inputs.na me", "inputs.$x")) {
            assertThatThrownBy(() -> Reference.parse(bad)).as(bad).isInstanceOfSatisfying(ReferenceException.class,
                    e -> assertThat(e.code()).isEqualTo("invalid_reference"));
        }
        assertThatThrownBy(() -> Reference.parse("env.HOME")).isInstanceOfSatisfying(ReferenceException.class,
                e -> assertThat(e.code()).isEqualTo("unknown_reference"));
        assertThatThrownBy(() -> Template.parse("hello ${inputs.name")).isInstanceOfSatisfying(ReferenceException.class,
                e -> assertThat(e.getMessage()).contains("hello ${inputs.name"));
    }

    @Test
    void shouldKeepJsonTypeWhenValueIsExactlyOneReference() {
        assertThat(Template.parse("${inputs.amount}").evaluate(CONTEXT)).isEqualTo(12.5);
        assertThat(Template.parse("${inputs.count}").evaluate(CONTEXT)).isEqualTo(3);
        assertThat(Template.parse("${inputs.urgent}").evaluate(CONTEXT)).isEqualTo(true);
        assertThat(Template.parse("${inputs.tags}").evaluate(CONTEXT)).isEqualTo(List.of("a", "b"));
        assertThat(Template.parse("${inputs.address}").evaluate(CONTEXT)).isEqualTo(Map.of("city", "Lyon"));
        assertThat(Template.parse("${steps.review.outputs.verdict}").evaluate(CONTEXT)).isEqualTo("accept");
        assertThat(Template.parse("${trigger.payload.commits.1.id}").evaluate(CONTEXT)).isEqualTo("c2");
    }

    @Test
    void shouldGiveNullWhenWholeReferenceIsMissing() {
        assertThat(Template.parse("${inputs.nobody}").evaluate(CONTEXT)).isNull();
        assertThat(Template.parse("${steps.later.outputs.x}").evaluate(CONTEXT)).isNull();
        assertThat(Template.parse("${trigger.payload.commits.9.id}").evaluate(CONTEXT)).isNull();
        assertThat(Template.parse("${callback.payload.status}").evaluate(CONTEXT)).isNull();
        assertThat(Template.parse("${inputs.name.first}").evaluate(CONTEXT)).isNull();
    }

    @Test
    void shouldInterpolateAsTextWhenReferencesAreInsideLongerText() {
        assertThat(Template.parse("${inputs.name} claims ${inputs.amount} (${inputs.count} items, urgent=${inputs.urgent})").evaluate(CONTEXT))
                .isEqualTo("Ada claims 12.5 (3 items, urgent=true)");
        assertThat(Template.parse("score ${steps.review.outputs.score}").evaluate(CONTEXT)).isEqualTo("score 3");
        assertThat(Template.parse("tags: ${inputs.tags}").evaluate(CONTEXT)).isEqualTo("tags: [\"a\",\"b\"]");
        assertThat(Template.parse("[${inputs.nobody}]").evaluate(CONTEXT)).isEqualTo("[]");
        assertThat(Template.parse(" ${inputs.count}").evaluate(CONTEXT)).isEqualTo(" 3");
        assertThat(Template.parse("costs $5").evaluate(CONTEXT)).isEqualTo("costs $5");
    }

    @Test
    void shouldEvaluateNestedMapsAndListsWhenValueIsStructured() {
        Object mapping = Map.of("who", "${inputs.name}", "lines", List.of("${inputs.amount}", "fixed", 7), "flag", false);

        Object evaluated = ReferenceEvaluator.evaluate(mapping, CONTEXT);

        assertThat(evaluated).isEqualTo(Map.of("who", "Ada", "lines", List.of(12.5, "fixed", 7), "flag", false));
        assertThat(ReferenceEvaluator.referencesIn(mapping)).extracting(Reference::expression).containsExactlyInAnyOrder("inputs.name", "inputs.amount");
    }

    @Test
    void shouldReadCallbackPayloadWhenContextCarriesIt() {
        ReferenceContext withCallback = CONTEXT.withCallbackPayload(Map.of("status", "ok"));
        assertThat(Template.parse("status=${callback.payload.status}").evaluate(withCallback)).isEqualTo("status=ok");
    }

    @Test
    void shouldListEveryProblemWhenSeveralExpressionsAreMalformed() {
        List<ReferenceException> problems = ReferenceEvaluator.problemsIn(List.of("${inputs.}", "ok ${inputs.name}", Map.of("x", "${env.X}")));
        assertThat(problems).extracting(ReferenceException::code).containsExactlyInAnyOrder("invalid_reference", "unknown_reference");
    }

    @Test
    void shouldRefuseInterpolationWhenTheTextWouldPassTheLimit() {
        // given: 2,000 references to a text of 10,000 characters, 20 million characters once interpolated
        ReferenceContext context = new ReferenceContext(Map.of("note", "n".repeat(10_000)), Map.of(), null, null);
        Object mapping = Map.of("a", "${inputs.note} ".repeat(1_000), "b", "${inputs.note} ".repeat(1_000));

        // when, then
        assertThatThrownBy(() -> ReferenceEvaluator.evaluate(mapping, context)).isInstanceOf(EvaluationTooLarge.class)
                .hasMessageContaining(String.valueOf(TextBudget.MAX_CHARS));
    }

    @Test
    void shouldRefuseWholeReferencesWhenTheirCopiesWouldPassTheLimit() {
        // given: 200 whole references to a list of 10,000 texts of 10 characters, each 120,000 characters as JSON
        ReferenceContext context = new ReferenceContext(Map.of("lines", java.util.Collections.nCopies(10_000, "0123456789")), Map.of(), null, null);
        List<Object> copies = java.util.Collections.nCopies(200, "${inputs.lines}");

        // when, then
        assertThatThrownBy(() -> ReferenceEvaluator.evaluate(copies, context)).isInstanceOf(EvaluationTooLarge.class);
    }

    @Test
    void shouldInterpolateNumbersBeyondDoubleRangeWhenPayloadHoldsThem() {
        // given: JSON has no infinity, but 1e400 parses as one
        Object payload = dev.sopline.schemas.json.Json.mapper().readValue("{\"amount\": 1e400}", Map.class);
        ReferenceContext context = new ReferenceContext(Map.of(), Map.of(), payload, null);

        // when
        Object text = Template.parse("amount: ${trigger.payload.amount}").evaluate(context);

        // then
        assertThat(text).isEqualTo("amount: Infinity");
    }
}
