package dev.sopline.judgment;

import dev.langchain4j.model.anthropic.AnthropicChatModel;
import dev.langchain4j.model.chat.Capability;
import dev.langchain4j.model.ollama.OllamaChatModel;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.sopline.schemas.definition.Durations;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The agent {@code SOP_LLM_PROVIDER} names (CONTRACT section 7): {@code local} (default, offline), {@code openai}
 * (and any OpenAI-compatible server at {@code SOP_LLM_BASE_URL}), {@code anthropic} or {@code ollama}; the model from
 * {@code SOP_LLM_MODEL}, keys from the providers' usual variables. Every chat provider is asked for structured output:
 * a JSON Schema built from the step's outputs, in at most {@code SOP_LLM_MAX_OUTPUT_TOKENS} tokens. Whatever the
 * provider, one decision gets {@code SOP_JUDGMENT_DECISION_TIMEOUT} in all ({@link TimeLimitedAgent}).
 */
public final class AgentProviders {

    public static final String DECISION_TIMEOUT = "SOP_JUDGMENT_DECISION_TIMEOUT";
    public static final String MAX_OUTPUT_TOKENS = "SOP_LLM_MAX_OUTPUT_TOKENS";
    static final Duration DEFAULT_DECISION_TIMEOUT = Duration.ofSeconds(90);
    /** The answer is a small JSON object with a sentence or two of rationale: a few hundred tokens. */
    static final int DEFAULT_MAX_OUTPUT_TOKENS = 1024;

    /**
     * The HTTP client's timeout for one request, up to the response's headers. The decision's timeout bounds the
     * whole; this one makes a server that never answers fail early enough for a retry.
     */
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);

    private AgentProviders() {}

    public static JudgmentAgent fromEnvironment(Map<String, String> env) {
        return from(env::get);
    }

    /** The agent of these settings, each read by name (environment variables, or a Spring environment). */
    public static JudgmentAgent from(Function<String, String> settings) {
        Duration decisionTimeout = decisionTimeout(settings.apply(DECISION_TIMEOUT));
        int maxOutputTokens = maxOutputTokens(settings.apply(MAX_OUTPUT_TOKENS));
        Duration requestTimeout = decisionTimeout.compareTo(REQUEST_TIMEOUT) < 0 ? decisionTimeout : REQUEST_TIMEOUT;
        String provider = setting(settings, "SOP_LLM_PROVIDER", "local");
        String baseUrl = settings.apply("SOP_LLM_BASE_URL");
        boolean ownBaseUrl = baseUrl != null && !baseUrl.isBlank();
        JudgmentAgent agent = switch (provider) {
            case "local" -> new LocalEmbeddingAgent();
            case "openai" -> {
                String model = setting(settings, "SOP_LLM_MODEL", "gpt-4o-mini");
                String apiKey = setting(settings, "OPENAI_API_KEY", "not-needed");
                OpenAiChatModel.OpenAiChatModelBuilder builder = OpenAiChatModel.builder()
                        .apiKey(apiKey)
                        .modelName(model)
                        .timeout(requestTimeout)
                        .maxRetries(1)
                        .strictJsonSchema(true)
                        .supportedCapabilities(Capability.RESPONSE_FORMAT_JSON_SCHEMA);
                if (ownBaseUrl) {
                    // Compatible servers (vLLM, LM Studio, llama.cpp) know max_tokens; not all know its successor.
                    builder.baseUrl(baseUrl).maxTokens(maxOutputTokens);
                } else {
                    // OpenAI's reasoning models refuse max_tokens.
                    builder.maxCompletionTokens(maxOutputTokens);
                }
                yield new ChatModelAgent(builder.build(), "openai/" + model, true, List.of(apiKey));
            }
            case "anthropic" -> {
                // Structured output (output_config.format) needs a model of the Claude 4.5 line or later.
                String model = setting(settings, "SOP_LLM_MODEL", "claude-haiku-4-5");
                String apiKey = settings.apply("ANTHROPIC_API_KEY");
                AnthropicChatModel.AnthropicChatModelBuilder builder = AnthropicChatModel.builder()
                        .apiKey(apiKey)
                        .modelName(model)
                        .timeout(requestTimeout)
                        .maxRetries(1)
                        .maxTokens(maxOutputTokens)
                        .supportedCapabilities(Capability.RESPONSE_FORMAT_JSON_SCHEMA);
                if (ownBaseUrl) {
                    builder.baseUrl(baseUrl);
                }
                yield new ChatModelAgent(builder.build(), "anthropic/" + model, true, apiKey == null ? List.of() : List.of(apiKey));
            }
            case "ollama" -> {
                String model = setting(settings, "SOP_LLM_MODEL", "llama3.1");
                OllamaChatModel chat = OllamaChatModel.builder()
                        .maxRetries(1)
                        .baseUrl(ownBaseUrl ? baseUrl : "http://localhost:11434")
                        .modelName(model)
                        .timeout(requestTimeout)
                        .numPredict(maxOutputTokens)
                        .supportedCapabilities(Capability.RESPONSE_FORMAT_JSON_SCHEMA)
                        .build();
                yield new ChatModelAgent(chat, "ollama/" + model, true);
            }
            default -> throw new IllegalArgumentException(
                    "Expected SOP_LLM_PROVIDER to be local, openai, anthropic or ollama, but it is '" + provider + "'");
        };
        return new TimeLimitedAgent(agent, decisionTimeout);
    }

    private static String setting(Function<String, String> settings, String name, String otherwise) {
        String value = settings.apply(name);
        return value == null ? otherwise : value;
    }

    static Duration decisionTimeout(String text) {
        if (text == null || text.isBlank()) {
            return DEFAULT_DECISION_TIMEOUT;
        }
        return Durations.parse(text).orElseThrow(() -> new IllegalArgumentException(
                "Expected %s to be a duration such as 90s or 2m, but it is '%s'".formatted(DECISION_TIMEOUT, text)));
    }

    static int maxOutputTokens(String text) {
        if (text == null || text.isBlank()) {
            return DEFAULT_MAX_OUTPUT_TOKENS;
        }
        try {
            int tokens = Integer.parseInt(text.strip());
            if (tokens >= 64) {
                return tokens;
            }
        } catch (NumberFormatException e) {
            // Said below.
        }
        throw new IllegalArgumentException("Expected %s to be a whole number of at least 64, but it is '%s'".formatted(MAX_OUTPUT_TOKENS, text));
    }
}
