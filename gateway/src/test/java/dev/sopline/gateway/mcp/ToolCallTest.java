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
        // The path an idempotency key's fingerprint takes, as for the same operation over HTTP.
        assertThat(withoutKey.getServletPath()).isEqualTo("/sop/review/start");
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

    /** Read as an int, 4294967297 was 1 and 4294967326 was 30: a limit or wait the agent did not ask for. */
    @Test
    void shouldRefuseWholeNumbersOutsideTheIntRangeAndFractionsAsInvalidArguments() {
        Map<String, Object> arguments = new HashMap<>();
        arguments.put("limit", 4294967297L);
        arguments.put("wait", 4294967326L);
        arguments.put("huge", new java.math.BigInteger("123456789012345678901234567890"));
        arguments.put("far", 1e10);
        arguments.put("infinite", Double.POSITIVE_INFINITY);
        arguments.put("fraction", 29.5);
        ToolCall call = new ToolCall(new MockHttpServletRequest(), arguments);

        for (String name : arguments.keySet()) {
            assertThatThrownBy(() -> call.optionalInteger(name)).as(name).isInstanceOfSatisfying(ApiException.class, refused -> {
                assertThat(refused.code()).isEqualTo(ToolErrors.INVALID_ARGUMENTS);
                assertThat(refused.details()).extracting(detail -> detail.field()).containsExactly(name);
            });
        }
        ToolCall inRange = new ToolCall(new MockHttpServletRequest(), Map.of("max", (long) Integer.MAX_VALUE, "min", Integer.MIN_VALUE, "whole", 30.0));
        assertThat(inRange.optionalInteger("max")).isEqualTo(Integer.MAX_VALUE);
        assertThat(inRange.optionalInteger("min")).isEqualTo(Integer.MIN_VALUE);
        assertThat(inRange.optionalInteger("whole")).isEqualTo(30);
    }

    @Test
    void shouldWrapAnObjectArgumentAsTheJsonBodyTheOperationReads() {
        ToolCall call = new ToolCall(new MockHttpServletRequest(), Map.of("inputs", Map.of("title", "From an agent"), "limit", 20));

        assertThat(new String(call.objectBody("inputs"), StandardCharsets.UTF_8)).isEqualTo("{\"inputs\":{\"title\":\"From an agent\"}}");
        assertThat(call.optionalInteger("limit")).isEqualTo(20);
    }
}
