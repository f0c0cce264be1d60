package dev.sopline.judgment;

import dev.langchain4j.model.anthropic.AnthropicChatModel;
import dev.langchain4j.model.chat.Capability;
import dev.langchain4j.model.ollama.OllamaChatModel;
import dev.langchain4j.model.openai.OpenAiChatModel;
import java.time.Duration;
import java.util.Map;

/**
 * The agent {@code SOP_LLM_PROVIDER} names (CONTRACT section 7): {@code local} (default, offline), {@code openai}
 * (and any OpenAI-compatible server at {@code SOP_LLM_BASE_URL}), {@code anthropic} or {@code ollama}; the model from
 * {@code SOP_LLM_MODEL}, keys from the providers' usual variables. Every chat provider is asked for structured output:
 * a JSON Schema built from the step's outputs.
 */
public final class AgentProviders {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private AgentProviders() {}

    public static JudgmentAgent fromEnvironment(Map<String, String> env) {
        String provider = env.getOrDefault("SOP_LLM_PROVIDER", "local");
        String baseUrl = env.get("SOP_LLM_BASE_URL");
        return switch (provider) {
            case "local" -> new LocalEmbeddingAgent();
            case "openai" -> {
                String model = env.getOrDefault("SOP_LLM_MODEL", "gpt-4o-mini");
                OpenAiChatModel.OpenAiChatModelBuilder builder = OpenAiChatModel.builder()
                        .apiKey(env.getOrDefault("OPENAI_API_KEY", "not-needed"))
                        .modelName(model)
                        .timeout(TIMEOUT)
                        .maxRetries(1)
                        .strictJsonSchema(true)
                        .supportedCapabilities(Capability.RESPONSE_FORMAT_JSON_SCHEMA);
                if (baseUrl != null && !baseUrl.isBlank()) {
                    builder.baseUrl(baseUrl);
                }
                yield new ChatModelAgent(builder.build(), "openai/" + model, true);
            }
            case "anthropic" -> {
                // Structured output (output_config.format) needs a model of the Claude 4.5 line or later.
                String model = env.getOrDefault("SOP_LLM_MODEL", "claude-haiku-4-5");
                AnthropicChatModel.AnthropicChatModelBuilder builder = AnthropicChatModel.builder()
                        .apiKey(env.get("ANTHROPIC_API_KEY"))
                        .modelName(model)
                        .timeout(TIMEOUT)
                        .maxRetries(1)
                        .supportedCapabilities(Capability.RESPONSE_FORMAT_JSON_SCHEMA);
                if (baseUrl != null && !baseUrl.isBlank()) {
                    builder.baseUrl(baseUrl);
                }
                yield new ChatModelAgent(builder.build(), "anthropic/" + model, true);
            }
            case "ollama" -> {
                String model = env.getOrDefault("SOP_LLM_MODEL", "llama3.1");
                OllamaChatModel chat = OllamaChatModel.builder()
                        .baseUrl(baseUrl == null || baseUrl.isBlank() ? "http://localhost:11434" : baseUrl)
                        .modelName(model)
                        .timeout(TIMEOUT)
                        .supportedCapabilities(Capability.RESPONSE_FORMAT_JSON_SCHEMA)
                        .build();
                yield new ChatModelAgent(chat, "ollama/" + model, true);
            }
            default -> throw new IllegalArgumentException(
                    "Expected SOP_LLM_PROVIDER to be local, openai, anthropic or ollama, but it is '" + provider + "'");
        };
    }
}
