package dev.sopline.gateway.mcp;

import dev.sopline.gateway.command.IdempotencyKeys;
import dev.sopline.gateway.web.ApiException;
import dev.sopline.schemas.json.Json;
import dev.sopline.schemas.validation.Violation;
import dev.sopline.schemas.validation.ViolationCode;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One call of a tool: its arguments, and the {@code /mcp} request it came in, whose token the security chain has
 * authenticated. The controllers get the request as if the operation had been called over HTTP: its method and path,
 * and the {@code idempotency_key} argument as the {@code Idempotency-Key} header.
 */
final class ToolCall {

    /** Where the transport puts the servlet request in the tool's context. */
    static final String REQUEST = "sop.mcp.request";
    static final String IDEMPOTENCY_KEY = "idempotency_key";

    private final HttpServletRequest request;
    private final Map<String, Object> arguments;

    ToolCall(HttpServletRequest request, Map<String, Object> arguments) {
        this.request = request;
        this.arguments = arguments == null ? Map.of() : arguments;
    }

    /** The request as the operation's controller expects it: {@code method path}, and the idempotency key if given. */
    HttpServletRequest asOperation(String method, String path) {
        String key = optionalText(IDEMPOTENCY_KEY);
        return new HttpServletRequestWrapper(request) {
            @Override
            public String getMethod() {
                return method;
            }

            @Override
            public String getRequestURI() {
                return path;
            }

            @Override
            public String getServletPath() {
                return path;
            }

            @Override
            public String getHeader(String name) {
                // Only the argument counts: a header of the MCP request itself would apply to every tool it calls.
                return IdempotencyKeys.HEADER.equalsIgnoreCase(name) ? key : super.getHeader(name);
            }
        };
    }

    String text(String name) {
        String value = optionalText(name);
        if (value == null || value.isBlank()) {
            throw invalid(name, ViolationCode.REQUIRED, "Expected the argument '" + name + "', a non-empty text");
        }
        return value;
    }

    String optionalText(String name) {
        Object value = arguments.get(name);
        if (value == null) {
            return null;
        }
        if (!(value instanceof String text)) {
            throw invalid(name, ViolationCode.INVALID_TYPE, "Expected the argument '" + name + "' to be a text");
        }
        return text;
    }

    /** A whole number an int holds; any other number is refused, never narrowed (4294967297 is not read as 1). */
    Integer optionalInteger(String name) {
        Object value = arguments.get(name);
        if (value == null) {
            return null;
        }
        if (value instanceof Number number) {
            try {
                return new BigDecimal(number.toString()).intValueExact();
            } catch (NumberFormatException | ArithmeticException notAnInt) {
                // refused below
            }
        }
        throw invalid(name, ViolationCode.INVALID_TYPE, "Expected the argument '" + name + "' to be a whole number from "
                + Integer.MIN_VALUE + " to " + Integer.MAX_VALUE);
    }

    /** An object argument as the JSON body the operation reads, e.g. {@code {"inputs": {...}}}. */
    byte[] objectBody(String name) {
        return objectBody(name, List.of());
    }

    /**
     * The request body of an endpoint that takes the object argument {@code name} as its field of that name, with the
     * arguments named in {@code alsoPassed} beside it when given (the endpoint checks them as it checks any body).
     */
    byte[] objectBody(String name, List<String> alsoPassed) {
        Object value = arguments.get(name);
        if (value == null) {
            throw invalid(name, ViolationCode.REQUIRED, "Expected the argument '" + name + "', an object");
        }
        if (!(value instanceof Map<?, ?>)) {
            throw invalid(name, ViolationCode.INVALID_TYPE, "Expected the argument '" + name + "' to be an object");
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put(name, value);
        alsoPassed.stream().filter(arguments::containsKey).forEach(argument -> body.put(argument, arguments.get(argument)));
        return Json.mapper().writeValueAsBytes(body);
    }

    private static ApiException invalid(String name, String code, String message) {
        return new ApiException(400, ToolErrors.INVALID_ARGUMENTS, message, List.of(Violation.of(name, code, message)));
    }
}
