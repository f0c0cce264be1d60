package dev.sopline.judgment;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
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
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An agent backed by a chat model through langchain4j (OpenAI or a compatible server, Anthropic, Ollama). Where the
 * provider enforces structured output, the answer's JSON Schema is built from the step's declared outputs. An answer
 * that cannot be used (not JSON, outputs that do not fit the step) is asked again once, with the reason; a second
 * unusable answer makes the step undecidable, and a person decides. A call that fails is logged at WARN with its
 * cause, never the API key or the messages ({@link FailureMessages}), once a minute at most per kind of failure.
 */
public final class ChatModelAgent implements JudgmentAgent {

    private static final Logger LOG = LoggerFactory.getLogger(ChatModelAgent.class);

    private final ChatModel chat;
    private final String model;
    private final boolean structuredOutput;
    private final List<String> secrets;
    private final ThrottledWarnings warnings = new ThrottledWarnings(LOG);

    public ChatModelAgent(ChatModel chat, String model, boolean structuredOutput) {
        this(chat, model, structuredOutput, List.of());
    }

    /** {@code secrets}: what a failure's message must never show in the log, such as the API key. */
    ChatModelAgent(ChatModel chat, String model, boolean structuredOutput, List<String> secrets) {
        this.chat = chat;
        this.model = model;
        this.structuredOutput = structuredOutput;
        this.secrets = secrets.stream().filter(secret -> secret != null && !secret.isBlank()).toList();
    }

    @Override
    public AgentAnswer decide(JudgmentRequest request) throws UndecidableException {
        List<ChatMessage> messages = new ArrayList<>(List.of(SystemMessage.from(Prompts.system(request)), UserMessage.from(Prompts.user(request))));
        String answer = ask(request, messages);
        try {
            return AnswerParser.parse(answer, request.outputs(), model, hash(messages));
        } catch (UndecidableException first) {
            messages.add(AiMessage.from(answer == null ? "" : answer));
            messages.add(UserMessage.from(Prompts.reask(first.getMessage())));
            String second = ask(request, messages);
            try {
                return AnswerParser.parse(second, request.outputs(), model, hash(messages));
            } catch (UndecidableException again) {
                throw new UndecidableException("The model's answer could not be used, also when asked again: " + again.getMessage(),
                        hash(messages));
            }
        }
    }

    private String ask(JudgmentRequest request, List<ChatMessage> messages) throws UndecidableException {
        ChatRequest.Builder builder = ChatRequest.builder().messages(messages);
        if (structuredOutput) {
            builder.responseFormat(ResponseFormat.builder().type(ResponseFormatType.JSON).jsonSchema(answerSchema(request)).build());
        }
        ChatResponse response;
        try {
            response = chat.chat(builder.build());
        } catch (RuntimeException e) {
            if (!abandoned(e)) {
                warnings.warn(e.getClass().getName(), "%s could not be asked to decide a step of process '%s'; the step goes to a person: %s"
                        .formatted(model, request.process(), FailureMessages.of(e, hidden(messages))));
            }
            throw new UndecidableException("The model could not be asked: " + e.getClass().getSimpleName(), hash(messages), e);
        }
        return response.aiMessage() == null ? null : response.aiMessage().text();
    }

    /** Interrupted: the call was abandoned past its deadline, which {@link TimeLimitedAgent} reports. */
    private static boolean abandoned(Throwable failure) {
        if (Thread.currentThread().isInterrupted()) {
            return true;
        }
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof InterruptedException) {
                return true;
            }
        }
        return false;
    }

    private List<String> hidden(List<ChatMessage> messages) {
        List<String> hidden = new ArrayList<>(secrets);
        messages.forEach(message -> hidden.add(content(message)));
        return hidden;
    }

    /** The hash of every message the model read for the answer it gave. */
    private static String hash(List<ChatMessage> messages) {
        return PromptHash.of(messages.stream().map(ChatModelAgent::text).toList());
    }

    private static String text(ChatMessage message) {
        String role = message instanceof SystemMessage ? "system" : message instanceof UserMessage ? "user" : "assistant";
        return role + ": " + content(message);
    }

    private static String content(ChatMessage message) {
        if (message instanceof SystemMessage system) {
            return system.text();
        }
        if (message instanceof UserMessage user) {
            return user.singleText();
        }
        return ((AiMessage) message).text();
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
        outputs.additionalProperties(false);
        JsonObjectSchema root = JsonObjectSchema.builder()
                .addProperty("outputs", outputs.build())
                .addProperty("confidence", JsonNumberSchema.builder().description("from 0 to 1").build())
                .addProperty("rationale", JsonStringSchema.builder().build())
                .required("outputs", "confidence", "rationale")
                .additionalProperties(false)
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
