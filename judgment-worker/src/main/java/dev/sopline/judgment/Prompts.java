package dev.sopline.judgment;

import dev.sopline.schemas.definition.FieldType;
import dev.sopline.schemas.definition.OutputDeclaration;
import dev.sopline.schemas.json.Json;
import java.util.stream.Collectors;

/** The text agents read: the step's context, and for chat models the task and the JSON answer expected. */
final class Prompts {

    static final String SYSTEM = """
            You decide one step of a business procedure. Read the step, its instructions and its inputs, and choose its
            outputs. Answer with one JSON object only, of this shape:
            {"outputs": {<output name>: <value>, ...}, "confidence": <number from 0 to 1>, "rationale": "<one or two sentences>"}
            Use only the allowed values where they are listed. Give a low confidence when the inputs do not settle the
            decision; a person will then decide.""";

    private Prompts() {}

    /** The step as one text: name, instructions and inputs. */
    static String context(JudgmentRequest request) {
        StringBuilder text = new StringBuilder(request.stepName());
        if (request.instructions() != null) {
            text.append(". ").append(request.instructions());
        }
        request.inputs().forEach((name, value) -> text.append(". ").append(name.replace('_', ' ')).append(": ").append(value));
        return text.toString();
    }

    static String user(JudgmentRequest request) {
        String outputs = request.outputs().stream().map(Prompts::describe).collect(Collectors.joining("\n"));
        return """
                Process: %s
                Step: %s
                Instructions: %s
                Inputs (JSON): %s
                Outputs to decide:
                %s""".formatted(request.process(), request.stepName(), request.instructions() == null ? "(none)" : request.instructions(),
                Json.mapper().writeValueAsString(request.inputs()), outputs);
    }

    private static String describe(OutputDeclaration output) {
        String kind = output.type() == FieldType.ENUM ? "one of " + output.values() : output.type().wireName();
        return "- " + output.name() + ": " + kind + (output.description() == null ? "" : " (" + output.description() + ")");
    }
}
