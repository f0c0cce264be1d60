package dev.sopline.judgment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.output.Response;
import dev.sopline.schemas.definition.FieldType;
import dev.sopline.schemas.definition.OutputDeclaration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What a process file can make the offline agent do: bounded, and stopped when the decision is given up on. */
class LocalAgentBoundsTest {

    private final AtomicInteger embedded = new AtomicInteger();
    private volatile int interruptAt = Integer.MAX_VALUE;

    /** Counts its embeddings; a vector from the text's hash stands for the model's. */
    private final EmbeddingModel counting = new EmbeddingModel() {
        @Override
        public Response<Embedding> embed(String text) {
            if (embedded.incrementAndGet() == interruptAt) {
                Thread.currentThread().interrupt();
            }
            int hash = text.hashCode();
            return Response.from(Embedding.from(new float[] {hash & 0xff, (hash >> 8) & 0xff, (hash >> 16) & 0xff, 1}));
        }

        @Override
        public Response<Embedding> embed(TextSegment segment) {
            return embed(segment.text());
        }

        @Override
        public Response<List<Embedding>> embedAll(List<TextSegment> segments) {
            return Response.from(segments.stream().map(segment -> embed(segment).content()).toList());
        }
    };

    private final LocalEmbeddingAgent agent = new LocalEmbeddingAgent(counting);

    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    private static JudgmentRequest route(String ticket, String instructions, OutputDeclaration... outputs) {
        return new JudgmentRequest("support", "Route the ticket", instructions, Map.of("ticket", ticket), List.of(outputs));
    }

    private static OutputDeclaration team(List<String> values, String description) {
        return new OutputDeclaration("team", FieldType.ENUM, values, null, description);
    }

    @Test
    void shouldEscalateWithoutEmbeddingAnythingWhenTheStepAllowsThousandsOfValues() {
        List<String> values = IntStream.range(0, 5_000).mapToObj(i -> "team-" + i).toList();

        assertThatThrownBy(() -> agent.decide(route("charged twice", "Pick a team.", team(values, null))))
                .isInstanceOf(UndecidableException.class)
                .hasMessage("The step's outputs allow 5000 values in all, more than the local agent compares (64)");
        assertThat(embedded).hasValue(0);
    }

    @Test
    void shouldCountTheValuesOfEveryOutputTogether() {
        List<String> values = IntStream.range(0, 40).mapToObj(i -> "v" + i).toList();
        OutputDeclaration first = new OutputDeclaration("first", FieldType.ENUM, values, null, null);
        OutputDeclaration second = new OutputDeclaration("second", FieldType.ENUM, values, null, null);

        assertThatThrownBy(() -> agent.decide(route("charged twice", null, first, second))).isInstanceOf(UndecidableException.class)
                .hasMessageContaining("80 values");
        assertThat(embedded).hasValue(0);
    }

    @Test
    void shouldEscalateWithoutEmbeddingAnythingWhenAValueIsDescribedAtGreatLength() {
        OutputDeclaration output = team(List.of("billing", "shipping"), "x".repeat(256 * 1024));

        assertThatThrownBy(() -> agent.decide(route("charged twice", null, output))).isInstanceOf(UndecidableException.class)
                .hasMessageContaining("The value 'billing' of output 'team' is described in").hasMessageContaining("(2000)");
        assertThat(embedded).hasValue(0);
    }

    @Test
    void shouldEscalateWithoutEmbeddingAnythingWhenTheCaseIsLongerThanItCompares() {
        assertThatThrownBy(() -> agent.decide(route("charged twice ".repeat(10_000), null, team(List.of("billing", "shipping"), null))))
                .isInstanceOf(UndecidableException.class)
                .hasMessage("The case's inputs make 140008 characters of text, more than the local agent compares (8000)");
        assertThat(embedded).hasValue(0);
    }

    @Test
    void shouldStillDecideWithinTheBounds() throws Exception {
        List<String> values = new ArrayList<>(IntStream.range(0, LocalEmbeddingAgent.MOST_OPTIONS).mapToObj(i -> "team-" + i).toList());

        AgentAnswer answer = agent.decide(route("charged twice", "Pick a team.", team(values, "d".repeat(1_500))));

        assertThat(values).contains((String) answer.outputs().get("team"));
    }

    @Test
    void shouldStopEmbeddingOnceTheDecisionIsGivenUpOn() {
        // The deadline interrupts the decision while it embeds the values' texts.
        interruptAt = 3;
        List<String> values = IntStream.range(0, 30).mapToObj(i -> "team-" + i).toList();

        assertThatThrownBy(() -> agent.decide(route("charged twice", null, team(values, null)))).isInstanceOf(UndecidableException.class)
                .hasMessageContaining("stopped");
        assertThat(embedded).hasValue(3);
    }
}
