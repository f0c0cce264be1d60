package dev.sopline.gateway.mcp;

import dev.sopline.engine.api.query.StateUnavailableException;
import dev.sopline.gateway.api.RequestScope;
import dev.sopline.gateway.auth.Role;
import dev.sopline.gateway.auth.TokenRecord;
import dev.sopline.gateway.command.CommandsInFlightFullException;
import dev.sopline.gateway.command.EngineUnavailableException;
import dev.sopline.gateway.security.RouteRoles;
import dev.sopline.gateway.web.ApiException;
import dev.sopline.gateway.web.ErrorBody;
import dev.sopline.gateway.web.HttpErrorCodes;
import dev.sopline.schemas.command.ErrorCodes;
import dev.sopline.schemas.json.Json;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.server.McpStatelessServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import jakarta.servlet.http.HttpServletRequest;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;
import org.springframework.web.util.UriComponentsBuilder;
import org.springframework.web.util.UriUtils;

/**
 * Runs a tool as its API operation runs: the token's role must include the operation's least role
 * ({@link RouteRoles}, the table the security chain enforces), then the operation's controller answers, and its answer
 * or refusal becomes the tool's result.
 */
@Component
class ToolRunner {

    private static final Logger LOG = LoggerFactory.getLogger(ToolRunner.class);

    private final RequestScope scope;

    ToolRunner(RequestScope scope) {
        this.scope = scope;
    }

    SyncToolSpecification specification(ToolDefinition definition) {
        return SyncToolSpecification.builder().tool(definition.tool())
                .callHandler((context, request) -> run(definition, context, request))
                .build();
    }

    CallToolResult run(ToolDefinition definition, McpTransportContext context, CallToolRequest request) {
        HttpServletRequest httpRequest = (HttpServletRequest) context.get(ToolCall.REQUEST);
        TokenRecord token = scope.token(httpRequest);
        Role needed = RouteRoles.leastRoleFor(definition.method(), definition.route()).orElse(Role.ADMIN);
        if (token == null || !token.effectiveRole().includes(needed)) {
            String role = token == null ? "none" : token.effectiveRole().wireName();
            return ToolErrors.result(HttpErrorCodes.FORBIDDEN, "Expected a token whose role allows " + definition.name() + " (role "
                    + needed.wireName() + " or above), but this token's role is " + role, null);
        }
        try {
            return answer(definition, definition.call().apply(new ToolCall(httpRequest, request.arguments())));
        } catch (ApiException refused) {
            return ToolErrors.result(refused.code(), refused.getMessage(), refused.details());
        } catch (CommandsInFlightFullException turnedAway) {
            // Not logged one by one, as in the API: under overload there is one a call, and a counter counts them.
            return ToolErrors.result(ErrorCodes.UNAVAILABLE, CommandsInFlightFullException.CLIENT_MESSAGE, null);
        } catch (EngineUnavailableException | StateUnavailableException unavailable) {
            LOG.warn("Tool {} answered unavailable: {}", definition.name(), unavailable.getMessage());
            return ToolErrors.result(ErrorCodes.UNAVAILABLE, "The engine is not ready to answer", null);
        } catch (RuntimeException unexpected) {
            LOG.error("Tool {} failed unexpectedly", definition.name(), unexpected);
            return ToolErrors.result("internal", "The gateway met an internal error", null);
        }
    }

    /**
     * The answer once, as JSON text: the MCP specification has a result's text carry its JSON for every client, and the
     * tools declare no output schema, so structured content would only repeat it (a list page held and sent twice).
     */
    private static CallToolResult answer(ToolDefinition definition, ResponseEntity<?> response) {
        Object body = response.getBody();
        if (body instanceof ErrorBody error) {
            return ToolErrors.result(error.error(), error.message(), error.details());
        }
        Object result;
        if (definition.listName() != null) {
            Map<String, Object> page = new LinkedHashMap<>();
            page.put(definition.listName(), body == null ? List.of() : body);
            String next = nextCursor(response.getHeaders());
            if (next != null) {
                page.put("next_cursor", next);
            }
            result = page;
        } else {
            Object value = Json.mapper().convertValue(body, Object.class);
            result = value instanceof Map<?, ?> ? value : Map.of("result", String.valueOf(value));
        }
        return CallToolResult.builder().addTextContent(Json.mapper().writeValueAsString(result)).build();
    }

    /** The API pages lists with a {@code Link: <...cursor=...>; rel="next"} header; a tool gives the cursor itself. */
    private static String nextCursor(HttpHeaders headers) {
        String link = headers.getFirst(HttpHeaders.LINK);
        if (link == null || !link.startsWith("<") || link.indexOf('>') < 0) {
            return null;
        }
        String url = link.substring(1, link.indexOf('>'));
        String cursor = UriComponentsBuilder.fromUriString(url).build(true).getQueryParams().getFirst("cursor");
        return cursor == null ? null : UriUtils.decode(cursor, StandardCharsets.UTF_8);
    }
}
