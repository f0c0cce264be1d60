package dev.sopline.gateway.mcp;

import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.server.McpStatelessServerHandler;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCNotification;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCRequest;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse.JSONRPCError;
import io.modelcontextprotocol.spec.McpStatelessServerTransport;
import java.util.List;
import java.util.Map;
import reactor.core.publisher.Mono;

/**
 * The SDK's transport, with each request's params checked before the SDK reads them. The SDK converts a
 * {@code tools/call}'s params to its own request type outside the chain that turns failures into JSON-RPC errors, so
 * params that were not an object, or a call without them or with {@code arguments} that were not an object, failed
 * there (a Jackson mismatch, a null pointer): the transport logged an error and answered HTTP 500. Such a request is
 * answered as the SDK answers its other bad params (an unknown tool): HTTP 200 with the JSON-RPC error -32602
 * (invalid params) and the request's id.
 */
final class CheckedParamsTransport implements McpStatelessServerTransport {

    private final McpStatelessServerTransport transport;

    CheckedParamsTransport(McpStatelessServerTransport transport) {
        this.transport = transport;
    }

    @Override
    public void setMcpHandler(McpStatelessServerHandler handler) {
        transport.setMcpHandler(new McpStatelessServerHandler() {
            @Override
            public Mono<JSONRPCResponse> handleRequest(McpTransportContext context, JSONRPCRequest request) {
                String problem = problemWith(request);
                return problem == null ? handler.handleRequest(context, request)
                        : Mono.just(JSONRPCResponse.error(request.id(), new JSONRPCError(McpSchema.ErrorCodes.INVALID_PARAMS, problem)));
            }

            @Override
            public Mono<Void> handleNotification(McpTransportContext context, JSONRPCNotification notification) {
                return handler.handleNotification(context, notification);
            }
        });
    }

    /** What is wrong with the request's params, or null when the SDK can read them. */
    static String problemWith(JSONRPCRequest request) {
        Object params = request.params();
        if (params != null && !(params instanceof Map<?, ?>)) {
            return "Expected params to be an object";
        }
        if (!McpSchema.METHOD_TOOLS_CALL.equals(request.method())) {
            return null;
        }
        if (params == null) {
            return "Expected params with the tool's name and its arguments: {\"name\": ..., \"arguments\": {...}}";
        }
        Map<?, ?> call = (Map<?, ?>) params;
        if (!(call.get("name") instanceof String)) {
            return "Expected params.name to be the name of a tool; tools/list lists them";
        }
        Object arguments = call.get("arguments");
        if (arguments != null && !(arguments instanceof Map<?, ?>)) {
            return "Expected params.arguments to be an object of the tool's arguments";
        }
        return null;
    }

    @Override
    public Mono<Void> closeGracefully() {
        return transport.closeGracefully();
    }

    @Override
    public void close() {
        transport.close();
    }

    @Override
    public List<String> protocolVersions() {
        return transport.protocolVersions();
    }
}
