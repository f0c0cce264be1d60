package dev.sopline.judgment;

import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ResponseFormat;
import dev.langchain4j.model.chat.request.ResponseFormatType;
import dev.langchain4j.model.chat.request.json.JsonBooleanSchema;
import dev.langchain4j.model.chat.request.json.JsonEnumSchema;
import dev.langchain4j.model.chat.request.json.JsonIntegerSchema;
import dev.langchain4j.model.chat.request.json.JsonNumberSchema;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonSchema;
import dev.langchain4j.model.chat.request.json.JsonSchemaElement;
import dev.langchain4j.model.chat.request.json.JsonStringSchema;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.sopline.schemas.definition.OutputDeclaration;

/**
 * An agent backed by a chat model through langchain4j (OpenAI or a compatible server, Anthropic, Ollama). Where the
 * provider enforces structured output, the answer's JSON Schema is built from the step's declared outputs.
 */
public final class ChatModelAgent implements JudgmentAgent {

    private final ChatModel chat;
    private final String model;
    private final boolean structuredOutput;

    public ChatModelAgent(ChatModel chat, String model, boolean structuredOutput) {
        this.chat = chat;
        this.model = model;
        this.structuredOutput = structuredOutput;
    }

    @Override
    public AgentAnswer decide(JudgmentRequest request) throws UndecidableException {
        ChatRequest.Builder builder = ChatRequest.builder()
                .messages(SystemMessage.from(Prompts.SYSTEM), UserMessage.from(Prompts.user(request)));
        if (structuredOutput) {
            builder.responseFormat(ResponseFormat.builder().type(ResponseFormatType.JSON).jsonSchema(answerSchema(request)).build());
        }
        ChatResponse response;
        try {
            response = chat.chat(builder.build());
        } catch (RuntimeException e) {
            throw new UndecidableException("The model could not be asked: " + e.getClass().getSimpleName(), e);
        }
        return AnswerParser.parse(response.aiMessage() == null ? null : response.aiMessage().text(), model);
    }

    @Override
    public String model() {
        return model;
    }

    static JsonSchema answerSchema(JudgmentRequest request) {
        JsonObjectSchema.Builder outputs = JsonObjectSchema.builder();
        for (OutputDeclaration output : request.outputs()) {
            outputs.addProperty(output.name(), element(output));
        }
        outputs.required(request.outputs().stream().map(OutputDeclaration::name).toList());
        JsonObjectSchema root = JsonObjectSchema.builder()
                .addProperty("outputs", outputs.build())
                .addProperty("confidence", JsonNumberSchema.builder().description("from 0 to 1").build())
                .addProperty("rationale", JsonStringSchema.builder().build())
                .required("outputs", "confidence", "rationale")
                .build();
        return JsonSchema.builder().name("judgment").rootElement(root).build();
    }

    private static JsonSchemaElement element(OutputDeclaration output) {
        return switch (output.type()) {
            case ENUM -> JsonEnumSchema.builder().enumValues(output.values()).build();
            case NUMBER -> JsonNumberSchema.builder().build();
            case INTEGER -> JsonIntegerSchema.builder().build();
            case BOOLEAN -> JsonBooleanSchema.builder().build();
            case STRING -> JsonStringSchema.builder().build();
        };
    }
}
