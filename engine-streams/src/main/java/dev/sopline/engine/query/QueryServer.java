package dev.sopline.engine.query;

import dev.sopline.engine.api.query.EngineQueryKey;
import dev.sopline.engine.api.query.StateUnavailableException;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.sopline.engine.api.query.Answer;
import dev.sopline.engine.api.query.EngineReader;
import dev.sopline.engine.api.query.QueryParameters;
import dev.sopline.engine.api.query.RemoteEngineReader;
import dev.sopline.schemas.json.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine replica's internal query endpoints, for the other replicas ({@code /internal/*}: this replica's own
 * partitions) and for gateways that run without an engine of their own ({@code /query/*}: routed to the owners).
 * Built on the JDK's HTTP server because the engine carries no web framework and these are a few GETs of JSON.
 * They take the workspace as a parameter, so they belong on the engines' private network, never on a public one.
 *
 * <p>Answers: 200 with the JSON; 404 {@code not_found} when the replica can say the thing does not exist; 503
 * {@code unavailable} with {@code Retry-After} when it cannot answer now (its stores are not restored yet, or the
 * owner of the data and every copy of it are unreachable); 400 {@code invalid_query}. A read of an instance that a
 * standby answered because its owner was unreachable carries {@code X-SOP-Stale: true}. The lists, counts and window
 * of {@code /internal/*} take {@code partitions} (comma-separated; only those partitions are read) and {@code stale}
 * (standby copies may answer); a list read so carries {@code "stale": true} in its JSON.
 * {@code /query/replicas} lists the query endpoints of every replica in the group, for gateways to find them.
 *
 * <p>Every query needs the engines' key in {@link EngineQueryKey#HEADER} (401 {@code unauthorized} without it): the
 * endpoints answer for any workspace, and the network they are on is often shared with workers and other services.
 * {@code /health} needs none and says only whether the replica can serve: 200, or 503 with {@code Retry-After}.
 */
public final class QueryServer implements AutoCloseable {

    static final String LOCAL_INSTANCE = "/internal/instance";
    static final String LOCAL_INSTANCES = "/internal/instances";
    static final String LOCAL_PENDING = "/internal/pending";
    static final String LOCAL_COUNTS = "/internal/counts";
    static final String LOCAL_WINDOW = "/internal/window";
    static final String LOCAL_HISTORY = "/internal/history";
    static final String ROUTED = "/query/";
    static final String REPLICAS = RemoteEngineReader.REPLICAS;
    static final String HEALTH = "/health";
    static final String RETRY_AFTER_SECONDS = "1";

    private static final Logger LOG = LoggerFactory.getLogger(QueryServer.class);

    private final HttpServer server;
    private final ExecutorService handlers;
    private final ScheduledExecutorService watcher;

    private QueryServer(HttpServer server, ExecutorService handlers, ScheduledExecutorService watcher) {
        this.server = server;
        this.handlers = handlers;
        this.watcher = watcher;
    }

    public static QueryServer start(int port, EngineQueries local, EngineReader routed, EngineQueryKey key) throws IOException {
        return start(port, local, routed, key, () -> true);
    }

    /**
     * @param progressing whether the engine beside the stores makes progress ({@code Engine#isHealthy}): its stream
     *     threads are not dying again and again on one record, and its result relay runs
     */
    public static QueryServer start(int port, EngineQueries local, EngineReader routed, EngineQueryKey key, BooleanSupplier progressing)
            throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(port), 0);
        server.createContext("/internal/", exchange -> answer(exchange, key, local, name -> readLocal(local, name, parameters(exchange))));
        server.createContext(ROUTED, exchange -> answer(exchange, key, local, name -> readRouted(local, routed, name, parameters(exchange))));
        server.createContext(HEALTH, exchange -> health(exchange, local, progressing));
        ExecutorService handlers = Executors.newFixedThreadPool(4);
        server.setExecutor(handlers);
        server.start();
        return new QueryServer(server, handlers, watchFirstRestore(local.serving()));
    }

    /** RUNNING may last only moments before a rebalance: look often until it has been seen once. */
    private static ScheduledExecutorService watchFirstRestore(ServingState serving) {
        ScheduledExecutorService watcher = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "engine-query-readiness");
            thread.setDaemon(true);
            return thread;
        });
        watcher.scheduleWithFixedDelay(() -> {
            if (serving.hasBeenRestored()) {
                watcher.shutdown();
            }
        }, 0, 20, TimeUnit.MILLISECONDS);
        return watcher;
    }

    public int port() {
        return server.getAddress().getPort();
    }

    private interface Read {
        Answer<Optional<?>> read(String name);
    }

    private static Map<String, String> parameters(HttpExchange exchange) {
        return QueryParameters.decode(exchange.getRequestURI().getRawQuery());
    }

    /**
     * Whether this replica can serve and makes progress, for orchestrators: nothing of any workspace, so no key. Its
     * stores may still answer reads while its stream threads die on the same record again and again, or its result
     * relay is down; the replica is DOWN then, as the standalone's health is.
     */
    private static void health(HttpExchange exchange, EngineQueries local, BooleanSupplier progressing) throws IOException {
        try (exchange) {
            boolean serving = local.serving().canServe();
            if (serving && progressing.getAsBoolean()) {
                send(exchange, 200, Map.of("status", "UP"));
            } else if (serving) {
                send(exchange, 503, Map.of("status", "DOWN", "reason", "not_progressing"));
            } else {
                exchange.getResponseHeaders().set("Retry-After", RETRY_AFTER_SECONDS);
                send(exchange, 503, Map.of("status", "DOWN"));
            }
        }
    }

    /** Every outcome is answered before the exchange is closed, errors included. */
    private static void answer(HttpExchange exchange, EngineQueryKey key, EngineQueries local, Read read) throws IOException {
        try (exchange) {
            if (!key.isShownBy(exchange.getRequestHeaders().getFirst(EngineQueryKey.HEADER))) {
                send(exchange, 401, Map.of("error", "unauthorized"));
                return;
            }
            if (!"GET".equals(exchange.getRequestMethod())) {
                send(exchange, 405, Map.of("error", "method_not_allowed"));
                return;
            }
            if (!local.serving().canServe()) {
                unavailable(exchange);
                return;
            }
            String name = exchange.getRequestURI().getPath().replaceFirst("^/(internal|query)/", "");
            Answer<Optional<?>> answer;
            try {
                answer = read.read(name);
            } catch (StateUnavailableException e) {
                LOG.debug("Query {} unavailable: {}", exchange.getRequestURI(), e.getMessage());
                unavailable(exchange);
                return;
            } catch (RuntimeException e) {
                LOG.warn("Query {} failed", exchange.getRequestURI(), e);
                send(exchange, 400, Map.of("error", "invalid_query"));
                return;
            }
            if (answer.value().isEmpty()) {
                send(exchange, 404, Map.of("error", "not_found"));
                return;
            }
            if (answer.stale()) {
                exchange.getResponseHeaders().set(Answer.STALE_HEADER, "true");
            }
            send(exchange, 200, answer.value().get());
        }
    }

    private static Answer<Optional<?>> readLocal(EngineQueries local, String name, Map<String, String> parameters) {
        if (name.equals("instance")) {
            String partition = parameters.get("partition");
            boolean stale = Boolean.parseBoolean(parameters.get("stale"));
            Optional<?> found = local.instance(required(parameters, "workspace"), required(parameters, "id"),
                    partition == null ? null : Integer.valueOf(partition), stale);
            if (stale && found.isEmpty()) {
                throw new StateUnavailableException("A standby copy may be behind: it cannot say the instance does not exist");
            }
            return new Answer<>(found, stale);
        }
        if (name.equals("history")) {
            return Answer.fresh(Optional.of(local.history(required(parameters, "workspace"), required(parameters, "id"),
                    Integer.parseInt(required(parameters, "partition")), parameters.get("cursor"),
                    Integer.parseInt(parameters.getOrDefault("limit", "50")))));
        }
        List<Integer> partitions = QueryParameters.partitions(parameters);
        if (partitions != null) {
            return Answer.fresh(readPartitions(local, name, parameters, partitions, Boolean.parseBoolean(parameters.get("stale"))));
        }
        return Answer.fresh(read(local, name, parameters));
    }

    /**
     * A list, count or window from this replica's copies of the named partitions only, standby copies included when
     * {@code stale}; a list read so carries its stale mark in its JSON.
     */
    private static Optional<?> readPartitions(EngineQueries local, String name, Map<String, String> parameters, List<Integer> partitions,
                                              boolean stale) {
        int limit = Integer.parseInt(parameters.getOrDefault("limit", "50"));
        String workspace = required(parameters, "workspace");
        return switch (name) {
            case "instances" -> Optional.of(local.instances(workspace, QueryParameters.instanceFilter(parameters), parameters.get("cursor"),
                    limit, partitions, stale));
            case "pending" -> Optional.of(local.pendingSteps(workspace, QueryParameters.pendingFilter(parameters), parameters.get("cursor"),
                    limit, partitions, stale));
            case "counts" -> Optional.of(local.counts(workspace, partitions, stale));
            case "window" -> Optional.of(local.window(workspace, Instant.ofEpochMilli(Long.parseLong(required(parameters, "from"))),
                    Instant.ofEpochMilli(Long.parseLong(required(parameters, "to"))), partitions, stale));
            default -> throw new IllegalArgumentException("Expected a list, count or window to scope by partition, but got " + name);
        };
    }

    private static Answer<Optional<?>> readRouted(EngineQueries local, EngineReader routed, String name, Map<String, String> parameters) {
        return switch (name) {
            case "instance" -> routed.instanceAnswer(required(parameters, "workspace"), required(parameters, "id"))
                    .<Answer<Optional<?>>>map(found -> new Answer<>(Optional.of(found.value()), found.stale()))
                    .orElse(Answer.fresh(Optional.empty()));
            case "replicas" -> Answer.fresh(Optional.of(local.replicaEndpoints()));
            default -> Answer.fresh(read(routed, name, parameters));
        };
    }

    private static Optional<?> read(EngineReader reader, String name, Map<String, String> parameters) {
        int limit = Integer.parseInt(parameters.getOrDefault("limit", "50"));
        return switch (name) {
            case "instance" -> reader.instance(required(parameters, "workspace"), required(parameters, "id"));
            case "instances" -> Optional.of(reader.instances(required(parameters, "workspace"), QueryParameters.instanceFilter(parameters),
                    parameters.get("cursor"), limit));
            case "pending" -> Optional.of(reader.pendingSteps(required(parameters, "workspace"), QueryParameters.pendingFilter(parameters),
                    parameters.get("cursor"), limit));
            case "counts" -> Optional.of(reader.counts(required(parameters, "workspace")));
            case "window" -> Optional.of(reader.window(required(parameters, "workspace"),
                    Instant.ofEpochMilli(Long.parseLong(required(parameters, "from"))), Instant.ofEpochMilli(Long.parseLong(required(parameters, "to")))));
            case "history" -> Optional.of(reader.history(required(parameters, "workspace"), required(parameters, "id"),
                    parameters.get("cursor"), limit));
            case "callback" -> reader.callbackOwner(required(parameters, "id"));
            case "process" -> reader.process(required(parameters, "workspace"), required(parameters, "name"));
            case "latest-version" -> reader.latestVersion(required(parameters, "workspace"), required(parameters, "name"));
            case "processes" -> Optional.of(reader.processes(required(parameters, "workspace")));
            default -> Optional.empty();
        };
    }

    private static String required(Map<String, String> parameters, String name) {
        String value = parameters.get(name);
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException("Expected the query parameter '" + name + "'");
        }
        return value;
    }

    private static void unavailable(HttpExchange exchange) throws IOException {
        exchange.getResponseHeaders().set("Retry-After", RETRY_AFTER_SECONDS);
        send(exchange, 503, Map.of("error", "unavailable"));
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
        watcher.shutdownNow();
        server.stop(1);
        handlers.shutdownNow();
    }
}
