package dev.sopline.judgment.evaluation;

import dev.sopline.judgment.JudgmentRequest;
import dev.sopline.schemas.definition.FieldType;
import dev.sopline.schemas.definition.OutputDeclaration;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.Yaml;

/**
 * The labelled judgment cases under {@code src/test/resources/evaluation/}: one file per process, whose instructions
 * state the policy that decides every case of it.
 */
public final class EvaluationSet {

    public static final List<String> FILES = List.of("expense-policy.yaml", "ticket-routing.yaml", "fraud-review.yaml");

    /** One case: what the agent is asked, and the outputs the policy gives. */
    public record LabelledCase(JudgmentRequest request, Map<String, Object> expected) {}

    private EvaluationSet() {}

    public static List<LabelledCase> load() {
        List<LabelledCase> cases = new ArrayList<>();
        FILES.forEach(file -> cases.addAll(load(file)));
        return cases;
    }

    @SuppressWarnings("unchecked")
    static List<LabelledCase> load(String file) {
        try (InputStream in = EvaluationSet.class.getResourceAsStream("/evaluation/" + file)) {
            if (in == null) {
                throw new IllegalStateException("Expected evaluation file " + file + " on the test classpath");
            }
            Map<String, Object> process = new Yaml().load(in);
            List<OutputDeclaration> outputs = ((List<Map<String, Object>>) process.get("outputs")).stream()
                    .map(output -> new OutputDeclaration((String) output.get("name"),
                            FieldType.fromWireName((String) output.get("type")).orElseThrow(),
                            (List<String>) output.get("values"), null, (String) output.get("description")))
                    .toList();
            return ((List<Map<String, Object>>) process.get("cases")).stream()
                    .map(labelled -> new LabelledCase(new JudgmentRequest((String) process.get("process"), (String) process.get("step"),
                            (String) process.get("instructions"), (Map<String, Object>) labelled.get("inputs"), outputs),
                            (Map<String, Object>) labelled.get("expected")))
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
