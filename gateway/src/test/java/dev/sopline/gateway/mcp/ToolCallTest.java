package dev.sopline.gateway.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sopline.gateway.web.ApiException;
import jakarta.servlet.http.HttpServletRequest;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;

class ToolCallTest {

    @Test
    void shouldHandTheControllerTheOperationsMethodPathAndOnlyTheArgumentsIdempotencyKey() {
        MockHttpServletRequest mcp = new MockHttpServletRequest("POST", "/mcp");
        mcp.addHeader("Idempotency-Key", "from-the-mcp-request");

        HttpServletRequest withoutKey = new ToolCall(mcp, Map.of("process", "review")).asOperation("POST", "/sop/review/start");
        HttpServletRequest withKey = new ToolCall(mcp, Map.of("idempotency_key", "retry-1")).asOperation("POST", "/sop/review/start");

        assertThat(withoutKey.getRequestURI()).isEqualTo("/sop/review/start");
        assertThat(withoutKey.getHeader("Idempotency-Key")).isNull();
        assertThat(withKey.getHeader("Idempotency-Key")).isEqualTo("retry-1");
    }

    @Test
    void shouldRefuseMissingOrMistypedArgumentsNamingThem() {
        Map<String, Object> arguments = new HashMap<>();
        arguments.put("limit", 1.5);
        arguments.put("process", 7);
        arguments.put("inputs", "not an object");
        ToolCall call = new ToolCall(new MockHttpServletRequest(), arguments);

        assertThatThrownBy(() -> call.text("instance_id")).isInstanceOfSatisfying(ApiException.class, refused -> {
            assertThat(refused.code()).isEqualTo(ToolErrors.INVALID_ARGUMENTS);
            assertThat(refused.details()).extracting(detail -> detail.field()).containsExactly("instance_id");
        });
        assertThatThrownBy(() -> call.optionalInteger("limit")).hasMessageContaining("limit");
        assertThatThrownBy(() -> call.optionalText("process")).hasMessageContaining("process");
        assertThatThrownBy(() -> call.objectBody("inputs")).hasMessageContaining("object");
    }

    @Test
    void shouldWrapAnObjectArgumentAsTheJsonBodyTheOperationReads() {
        ToolCall call = new ToolCall(new MockHttpServletRequest(), Map.of("inputs", Map.of("title", "From an agent"), "limit", 20));

        assertThat(new String(call.objectBody("inputs"), StandardCharsets.UTF_8)).isEqualTo("{\"inputs\":{\"title\":\"From an agent\"}}");
        assertThat(call.optionalInteger("limit")).isEqualTo(20);
    }
}
