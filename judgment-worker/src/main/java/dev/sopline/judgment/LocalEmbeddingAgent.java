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
import java.util.Objects;

/**
 * The offline agent: a sentence-embedding model shipped as a Maven artifact (all-MiniLM-L6-v2, quantized to 8 bits so
 * the platform's jar stays small, run in-process). It tells what a text is about; it does not read a policy, compare
 * amounts or weigh flags. So it embeds the case's inputs alone, compares them with each allowed value described by the
 * instructions' sentences that name it ({@link OptionTexts}), plainly and beyond what the mere form of the inputs
 * explains ({@link OptionScores}), and takes its confidence from the best value's lead ({@link MarginCalibration}). A
 * case whose inputs hold numbers or flags gets confidence 0: the decision then rests on conditions the model cannot
 * check, and the step goes to a person with the proposal. Free-text outputs cannot be chosen this way, so a step that
 * has one is handed to a person.
 */
public final class LocalEmbeddingAgent implements JudgmentAgent {

    public static final String MODEL = "local/all-minilm-l6-v2-q";

    private final EmbeddingModel embeddings;
    private final RecentEmbeddings options;

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
        this.options = new RecentEmbeddings(embeddings);
    }

    @Override
    public AgentAnswer decide(JudgmentRequest request) throws UndecidableException {
        if (request.outputs().isEmpty()) {
            throw new UndecidableException("The step declares no outputs to decide");
        }
        if (request.inputs().values().stream().allMatch(Objects::isNull)) {
            throw new UndecidableException("The step gives the local agent no inputs to compare with its allowed values");
        }
        String caseText = Prompts.caseText(request.inputs());
        List<String> read = new ArrayList<>(List.of(caseText));
        Embedding context = embeddings.embed(caseText).content();
        String blankText = Prompts.blankCaseText(request.inputs());
        read.add(blankText);
        Embedding blank = options.of(blankText);
        Map<String, Object> outputs = new LinkedHashMap<>();
        List<String> reasons = new ArrayList<>();
        double confidence = 1.0;
        for (OutputDeclaration output : request.outputs()) {
            List<String> candidates = candidates(output);
            double[] similarity = new double[candidates.size()];
            double[] lift = new double[candidates.size()];
            for (int i = 0; i < candidates.size(); i++) {
                String option = OptionTexts.of(output, candidates.get(i), request.instructions());
                read.add(option);
                Embedding described = options.of(option);
                similarity[i] = CosineSimilarity.between(context, described);
                lift[i] = similarity[i] - CosineSimilarity.between(blank, described);
            }
            OptionScores scores = new OptionScores(candidates, similarity, lift);
            String proposed = candidates.get(scores.proposed());
            outputs.put(output.name(), value(output, proposed));
            confidence = Math.min(confidence, MarginCalibration.confidence(scores));
            reasons.add(reason(output, scores));
        }
        List<String> unchecked = Prompts.nonTextInputs(request.inputs());
        if (!unchecked.isEmpty()) {
            confidence = 0;
            reasons.add("confidence 0: the inputs %s are numbers or flags, conditions this model cannot check, so a person decides"
                    .formatted(unchecked));
        }
        return new AgentAnswer(outputs, confidence, String.join("; ", reasons), MODEL, PromptHash.of(read));
    }

    @Override
    public String model() {
        return MODEL;
    }

    private static String reason(OutputDeclaration output, OptionScores scores) {
        int proposed = scores.proposed();
        int runnerUp = scores.runnerUp();
        if (runnerUp < 0) {
            return "'%s' is '%s', its only allowed value".formatted(output.name(), scores.candidates().get(proposed));
        }
        return "'%s': the case is closest to '%s' (similarity %.2f, lift %.2f), then '%s' (%.2f, %.2f); lead %.2f".formatted(
                output.name(), scores.candidates().get(proposed), scores.similarity()[proposed], scores.lift()[proposed],
                scores.candidates().get(runnerUp), scores.similarity()[runnerUp], scores.lift()[runnerUp], scores.margin());
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
}
