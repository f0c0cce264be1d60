package dev.sopline.judgment;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import dev.langchain4j.store.embedding.CosineSimilarity;
import dev.sopline.schemas.definition.FieldType;
import dev.sopline.schemas.definition.OutputDeclaration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The offline agent: an embedding model shipped as a Maven artifact (all-MiniLM-L6-v2, quantized to 8 bits so the
 * platform's jar stays small, run in-process) scores each allowed value of an enum output against the step's name,
 * instructions and inputs. The confidence is the softmax probability of the best value, so a clear winner gives a high
 * confidence and near ties a low one, which the engine escalates. Free-text outputs cannot be chosen this way, so a step that has one is handed to a person.
 */
public final class LocalEmbeddingAgent implements JudgmentAgent {

    public static final String MODEL = "local/all-minilm-l6-v2-q";
    /** Cosine similarities of this model differ by hundredths; the temperature turns such gaps into probabilities. */
    private static final double TEMPERATURE = 0.05;

    private final EmbeddingModel embeddings;

    public LocalEmbeddingAgent() {
        this(loadModel());
    }

    /** The model runs on native code that the standalone jar ships for some platforms only: say what to do elsewhere. */
    private static EmbeddingModel loadModel() {
        try {
            return new AllMiniLmL6V2QuantizedEmbeddingModel();
        } catch (RuntimeException | LinkageError e) {
            throw new IllegalStateException(("The offline judgment agent cannot run on %s %s (%s): set SOP_LLM_PROVIDER to "
                    + "openai, anthropic or ollama, or SOP_JUDGMENT_WORKER=false").formatted(System.getProperty("os.name"),
                    System.getProperty("os.arch"), e), e);
        }
    }

    LocalEmbeddingAgent(EmbeddingModel embeddings) {
        this.embeddings = embeddings;
    }

    @Override
    public AgentAnswer decide(JudgmentRequest request) throws UndecidableException {
        if (request.outputs().isEmpty()) {
            throw new UndecidableException("The step declares no outputs to decide");
        }
        Embedding context = embeddings.embed(Prompts.context(request)).content();
        Map<String, Object> outputs = new LinkedHashMap<>();
        List<String> reasons = new ArrayList<>();
        double confidence = 1.0;
        for (OutputDeclaration output : request.outputs()) {
            List<String> candidates = candidates(output);
            double[] similarities = new double[candidates.size()];
            for (int i = 0; i < candidates.size(); i++) {
                similarities[i] = CosineSimilarity.between(context, embeddings.embed(label(output, candidates.get(i))).content());
            }
            double[] probabilities = softmax(similarities);
            int best = 0;
            for (int i = 1; i < probabilities.length; i++) {
                if (probabilities[i] > probabilities[best]) {
                    best = i;
                }
            }
            outputs.put(output.name(), value(output, candidates.get(best)));
            confidence = Math.min(confidence, probabilities[best]);
            reasons.add("'%s' is closest to %s: '%s' (%.0f%% of the weight)".formatted(output.name(), "the step's context",
                    candidates.get(best), probabilities[best] * 100));
        }
        return new AgentAnswer(outputs, confidence, String.join("; ", reasons), MODEL);
    }

    @Override
    public String model() {
        return MODEL;
    }

    private static List<String> candidates(OutputDeclaration output) throws UndecidableException {
        if (output.type() == FieldType.ENUM && !output.values().isEmpty()) {
            return output.values();
        }
        if (output.type() == FieldType.BOOLEAN) {
            return List.of("yes", "no");
        }
        throw new UndecidableException("The local agent chooses among declared values only; output '%s' is %s"
                .formatted(output.name(), output.type()));
    }

    private static Object value(OutputDeclaration output, String candidate) {
        return output.type() == FieldType.BOOLEAN ? candidate.equals("yes") : candidate;
    }

    private static String label(OutputDeclaration output, String candidate) {
        String description = output.description() == null ? "" : " (" + output.description() + ")";
        return output.name().replace('_', ' ') + description + ": " + candidate.replace('_', ' ');
    }

    static double[] softmax(double[] similarities) {
        double max = Double.NEGATIVE_INFINITY;
        for (double similarity : similarities) {
            max = Math.max(max, similarity);
        }
        double sum = 0;
        double[] weights = new double[similarities.length];
        for (int i = 0; i < similarities.length; i++) {
            weights[i] = Math.exp((similarities[i] - max) / TEMPERATURE);
            sum += weights[i];
        }
        for (int i = 0; i < weights.length; i++) {
            weights[i] /= sum;
        }
        return weights;
    }
}
