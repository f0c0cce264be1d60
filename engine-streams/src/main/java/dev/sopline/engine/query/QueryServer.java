package dev.sopline.engine.query;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.sopline.schemas.json.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine replica's internal query endpoints, for the other replicas ({@code /internal/*}: this replica's own
 * partitions) and for gateways that run without an engine of their own ({@code /query/*}: routed to the owners).
 * Built on the JDK's HTTP server because the engine carries no web framework and these are a few GETs of JSON.
 * They take the workspace as a parameter, so they belong on the engines' private network, never on a public one.
 */
public final class QueryServer implements AutoCloseable {

    static final String LOCAL_INSTANCE = "/internal/instance";
    static final String LOCAL_INSTANCES = "/internal/instances";
    static final String LOCAL_PENDING = "/internal/pending";
    static final String LOCAL_COUNTS = "/internal/counts";
    static final String ROUTED = "/query/";

    private static final Logger LOG = LoggerFactory.getLogger(QueryServer.class);

    private final HttpServer server;

    private QueryServer(HttpServer server) {
        this.server = server;
    }

    public static QueryServer start(int port, EngineQueries local, EngineReader routed) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(port), 0);
        server.createContext("/internal/", exchange -> answer(exchange, local));
        server.createContext(ROUTED, exchange -> answer(exchange, routed));
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.start();
        return new QueryServer(server);
    }

    public int port() {
        return server.getAddress().getPort();
    }

    private static void answer(HttpExchange exchange, EngineReader reader) throws IOException {
        try (exchange) {
            if (!"GET".equals(exchange.getRequestMethod())) {
                send(exchange, 405, Map.of("error", "method_not_allowed"));
                return;
            }
            String name = exchange.getRequestURI().getPath().replaceFirst("^/(internal|query)/", "");
            Map<String, String> parameters = QueryParameters.decode(exchange.getRequestURI().getRawQuery());
            Optional<?> body = read(reader, name, parameters);
            if (body.isEmpty()) {
                send(exchange, 404, Map.of("error", "not_found"));
            } else {
                send(exchange, 200, body.get());
            }
        } catch (InvalidStateStoreException e) {
            send(exchange, 503, Map.of("error", "unavailable"));
        } catch (RuntimeException e) {
            LOG.warn("Query {} failed", exchange.getRequestURI(), e);
            send(exchange, 400, Map.of("error", "invalid_query"));
        }
    }

    private static Optional<?> read(EngineReader reader, String name, Map<String, String> parameters) {
        String workspace = parameters.get("workspace");
        int limit = Integer.parseInt(parameters.getOrDefault("limit", "50"));
        return switch (name) {
            case "instance" -> reader.instance(workspace, parameters.get("id"));
            case "instances" -> Optional.of(reader.instances(workspace, QueryParameters.instanceFilter(parameters), parameters.get("cursor"), limit));
            case "pending" -> Optional.of(reader.pendingSteps(workspace, QueryParameters.pendingFilter(parameters), parameters.get("cursor"), limit));
            case "counts" -> Optional.of(reader.counts(workspace));
            case "callback" -> reader.callbackOwner(parameters.get("id"));
            case "process" -> reader.process(workspace, parameters.get("name"));
            case "processes" -> Optional.of(reader.processes(workspace));
            default -> Optional.empty();
        };
    }

    private static void send(HttpExchange exchange, int status, Object body) throws IOException {
        byte[] bytes = Json.mapper().writeValueAsBytes(body);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(1);
    }
}
