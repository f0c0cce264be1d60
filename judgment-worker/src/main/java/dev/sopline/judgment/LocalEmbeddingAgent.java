package dev.sopline.judgment;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import dev.langchain4j.store.embedding.CosineSimilarity;
import dev.sopline.schemas.definition.FieldType;
import dev.sopline.schemas.definition.OutputDeclaration;
import dev.sopline.schemas.instance.Texts;
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
 * has one is handed to a person, as is one over the bounds of what it compares ({@link #MOST_OPTIONS} values,
 * {@link #MOST_OPTION_CHARS} characters of each value's text, {@link #MOST_CASE_CHARS} of the case's).
 */
public final class LocalEmbeddingAgent implements JudgmentAgent {

    public static final String MODEL = "local/all-minilm-l6-v2-q";
    /** Allowed values compared per case, over all outputs: a topic matcher has no use for more. */
    static final int MOST_OPTIONS = 64;
    /** The longest text of one value; the model reads 256 word pieces at a time, about 1,000 characters. */
    static final int MOST_OPTION_CHARS = 2_000;
    /** The longest case, as text: longer ones are read in several pieces, each one more run of the model. */
    static final int MOST_CASE_CHARS = 8_000;

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
        if (caseText.length() > MOST_CASE_CHARS) {
            throw new UndecidableException("The case's inputs make %d characters of text, more than the local agent compares (%d)"
                    .formatted(caseText.length(), MOST_CASE_CHARS));
        }
        List<List<String>> optionTexts = optionTexts(request);
        List<String> read = new ArrayList<>(List.of(caseText));
        Embedding context = embeddings.embed(caseText).content();
        String blankText = Prompts.blankCaseText(request.inputs());
        read.add(blankText);
        Embedding blank = embedded(blankText);
        Map<String, Object> outputs = new LinkedHashMap<>();
        List<String> reasons = new ArrayList<>();
        double confidence = 1.0;
        for (int o = 0; o < request.outputs().size(); o++) {
            OutputDeclaration output = request.outputs().get(o);
            List<String> candidates = candidates(output);
            double[] similarity = new double[candidates.size()];
            double[] lift = new double[candidates.size()];
            for (int i = 0; i < candidates.size(); i++) {
                String option = optionTexts.get(o).get(i);
                read.add(option);
                Embedding described = embedded(option);
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

    /**
     * The text of every value to compare the case with, output by output, or undecidable when they are more or longer than this agent
     * compares: each takes an embedding, and a process file could list thousands of long ones. Checked before the
     * first embedding, so a step over the bounds costs nothing.
     */
    private static List<List<String>> optionTexts(JudgmentRequest request) throws UndecidableException {
        int count = 0;
        for (OutputDeclaration output : request.outputs()) {
            count += candidates(output).size();
        }
        if (count > MOST_OPTIONS) {
            throw new UndecidableException("The step's outputs allow %d values in all, more than the local agent compares (%d)"
                    .formatted(count, MOST_OPTIONS));
        }
        List<List<String>> texts = new ArrayList<>();
        for (OutputDeclaration output : request.outputs()) {
            List<String> ofOutput = new ArrayList<>();
            for (String candidate : candidates(output)) {
                String text = OptionTexts.of(output, candidate, request.instructions());
                if (text.length() > MOST_OPTION_CHARS) {
                    throw new UndecidableException(("The value '%s' of output '%s' is described in %d characters (its sentences of the "
                            + "instructions and the output's description), more than the local agent compares (%d)")
                            .formatted(Texts.cut(candidate, 100), output.name(), text.length(), MOST_OPTION_CHARS));
                }
                ofOutput.add(text);
            }
            texts.add(ofOutput);
        }
        return texts;
    }

    /** An option's embedding; the decision stops here once it was given up on (its deadline has passed). */
    private Embedding embedded(String text) throws UndecidableException {
        if (Thread.currentThread().isInterrupted()) {
            throw new UndecidableException("The local agent was stopped before it had compared every value");
        }
        return options.of(text);
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
