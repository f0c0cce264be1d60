package dev.sopline.gateway.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.sopline.gateway.api.RequestScope;
import dev.sopline.gateway.auth.Role;
import dev.sopline.gateway.auth.TokenRecord;
import dev.sopline.gateway.command.CommandsInFlightFullException;
import dev.sopline.gateway.command.EngineUnavailableException;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.time.Instant;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpMethod;
import org.springframework.http.ResponseEntity;
import org.springframework.mock.web.MockHttpServletRequest;

/** What an agent gets when the engine cannot take its write: the same code and meaning as an API client. */
class ToolRunnerTest {

    private final ToolRunner runner = new ToolRunner(new RequestScope(null));
    private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
    private final Logger log = (Logger) LoggerFactory.getLogger(ToolRunner.class);

    @BeforeEach
    void listen() {
        logged.start();
        log.addAppender(logged);
    }

    @AfterEach
    void stopListening() {
        log.detachAppender(logged);
    }

    @Test
    void shouldTellAnAgentWhoseWriteWasTurnedAwayThatItWasNotTakenWithoutALogLinePerCall() {
        CallToolResult result = run(call -> {
            throw new CommandsInFlightFullException(128);
        });

        assertThat(result.isError()).isTrue();
        assertThat(result.structuredContent()).asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
                .containsEntry("error", "unavailable")
                .containsEntry("message", CommandsInFlightFullException.CLIENT_MESSAGE)
                .containsKey("next");
        assertThat(logged.list).isEmpty();
    }

    @Test
    void shouldWarnWhenTheEngineCannotAnswer() {
        CallToolResult result = run(call -> {
            throw new EngineUnavailableException("Expected the engine to answer within 10000 ms", null);
        });

        assertThat(result.isError()).isTrue();
        assertThat(result.structuredContent()).asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
                .containsEntry("error", "unavailable")
                .containsEntry("message", "The engine is not ready to answer");
        assertThat(logged.list).extracting(ILoggingEvent::getFormattedMessage)
                .containsExactly("Tool start_instance answered unavailable: Expected the engine to answer within 10000 ms");
    }

    private CallToolResult run(Function<ToolCall, ResponseEntity<?>> call) {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/mcp");
        request.setAttribute(RequestScope.TOKEN_RECORD_ATTRIBUTE,
                new TokenRecord("t1", "team-a", "agent", "hash", Instant.now(), null, null, Role.ADMIN));
        ToolDefinition definition = new ToolDefinition(ToolSchemas.tool("start_instance", "Start", "Starts an instance",
                "{\"type\":\"object\"}", ToolSchemas.Effect.WRITES), HttpMethod.POST, "/sop/{name}/start", call, null);
        return runner.run(definition, McpTransportContext.create(Map.of(ToolCall.REQUEST, request)), new CallToolRequest("start_instance", Map.of()));
    }
}
