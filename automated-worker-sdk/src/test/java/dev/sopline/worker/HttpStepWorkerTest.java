package dev.sopline.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * HTTP mode against a gateway that refuses the token's role (403): the worker says once, at ERROR, which role it needs,
 * and neither hammers the gateway nor runs steps it could not report. Against a gateway that asks it to come back
 * later (429, 503): it sends the step's result again, and does not run the step again.
 */
class HttpStepWorkerTest {

    private static final String FORBIDDEN = "{\"error\":\"forbidden\",\"message\":\"Expected a token whose role allows it\"}";
    private static final String ONE_STEP = """
            [{"instance_id":"inst-1","process":"billing","version":"1.0","step_id":"pay","run":"billing.pay","attempt":1,
              "inputs":{"amount":5}}]""";

    private final List<String> requests = new CopyOnWriteArrayList<>();
    private final ListAppender<ILoggingEvent> log = new ListAppender<>();
    private final Logger workerLogger = (Logger) LoggerFactory.getLogger(HttpStepWorker.class);
    private HttpServer gateway;

    @BeforeEach
    void captureLog() {
        log.start();
        workerLogger.addAppender(log);
    }

    @AfterEach
    void stop() {
        workerLogger.detachAppender(log);
        if (gateway != null) {
            gateway.stop(0);
        }
    }

    @Test
    void shouldLogOneErrorNamingTheWorkerRoleAndBackOffWhenTheGatewayAnswers403() throws IOException {
        startGateway(Map.of());
        AtomicInteger handled = new AtomicInteger();

        try (SopWorker worker = httpWorker(handled)) {
            await().atMost(Duration.ofSeconds(5)).until(() -> !requests.isEmpty());
            // Not a hot loop: the next try waits for the back-off, far longer than this.
            await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(2)).until(() -> requests.size() == 1);
            assertThat(worker.isRunning()).as("the worker keeps running, to try again later").isTrue();
        }

        assertThat(errors()).singleElement().satisfies(message -> assertThat(message)
                .contains("403", "role 'worker'", "POST /workspace/tokens", "every " + HttpStepWorker.FORBIDDEN_BACKOFF.toSeconds() + " s"));
        assertThat(handled).hasValue(0);
    }

    @Test
    void shouldNotTakeStepsWhenItsTokenIsAViewer() throws IOException {
        startGateway(Map.of("/sop/token", json(200, "{\"id\":\"tok-1\",\"name\":\"w\",\"role\":\"viewer\",\"workspace\":\"default\"}"),
                "/sop/steps/pending", json(200, ONE_STEP)));
        AtomicInteger handled = new AtomicInteger();

        try (SopWorker worker = httpWorker(handled)) {
            await().atMost(Duration.ofSeconds(5)).until(() -> !requests.isEmpty());
            await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(2)).until(() -> requests.equals(List.of("GET /sop/token")));
        }

        assertThat(handled).as("a step whose result the token could not submit is never run").hasValue(0);
        assertThat(errors()).singleElement().satisfies(message -> assertThat(message).contains("role 'viewer'", "role 'worker'"));
    }

    @Test
    void shouldStopPollingWhenASubmitIsRefusedWith403() throws IOException {
        // A gateway that does not tell the token's role (404 on /sop/token): the submit's 403 is the first sign.
        startGateway(Map.of("/sop/steps/pending", json(200, ONE_STEP)));
        AtomicInteger handled = new AtomicInteger();

        try (SopWorker worker = httpWorker(handled)) {
            await().atMost(Duration.ofSeconds(5)).until(() -> requests.stream().anyMatch(request -> request.startsWith("POST ")));
            await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(2)).until(() -> requests.size() == 3);
        }

        assertThat(requests).containsExactly("GET /sop/token", "GET /sop/steps/pending", "POST /sop/billing/inst-1/steps/pay/submit");
        assertThat(handled).as("the step ran once, not again at every poll").hasValue(1);
        assertThat(errors()).singleElement().satisfies(message -> assertThat(message)
                .contains("403", "POST /sop/billing/inst-1/steps/pay/submit", "role 'worker'"));
    }

    @Test
    void shouldSendAResultAgainAfterRetryAfterWhenItsSubmitIsTurnedAwayWithoutRunningTheStepAgain() throws IOException {
        java.util.Deque<Answer> submits = new java.util.concurrent.ConcurrentLinkedDeque<>(List.of(
                new Answer(503, "{\"error\":\"unavailable\",\"message\":\"this one was not taken\"}", "1"),
                new Answer(429, "{\"error\":\"rate_limited\",\"message\":\"Too many requests\"}", "1"),
                json(200, "{\"id\":\"inst-1\",\"state\":\"completed\"}")));
        java.util.Deque<Answer> pending = new java.util.concurrent.ConcurrentLinkedDeque<>(List.of(json(200, ONE_STEP)));
        startGateway(path -> switch (path) {
            case "/sop/token" -> json(200, "{\"id\":\"tok-1\",\"name\":\"w\",\"role\":\"worker\",\"workspace\":\"default\"}");
            case "/sop/steps/pending" -> pending.isEmpty() ? json(200, "[]") : pending.poll();
            case "/sop/billing/inst-1/steps/pay/submit" -> submits.poll();
            default -> json(403, FORBIDDEN);
        });
        AtomicInteger handled = new AtomicInteger();

        try (SopWorker worker = httpWorker(handled)) {
            await().atMost(Duration.ofSeconds(10)).until(submits::isEmpty);
            await().atMost(Duration.ofSeconds(5)).until(() -> requests.stream().filter(request -> request.equals("GET /sop/steps/pending")).count() >= 2);
        }

        assertThat(handled).as("the step ran once; only its result was sent again").hasValue(1);
        assertThat(requests).filteredOn(request -> request.startsWith("POST ")).hasSize(3);
        assertThat(log.list).filteredOn(event -> event.getLevel().isGreaterOrEqual(Level.WARN)).isEmpty();
    }

    private SopWorker httpWorker(AtomicInteger handled) {
        return SopWorker.builder()
                .http("http://localhost:" + gateway.getAddress().getPort(), "a-token")
                .handle("billing.pay", step -> {
                    handled.incrementAndGet();
                    return Map.of("receipt", "r-1");
                })
                .closeTimeout(Duration.ofSeconds(1))
                .start();
    }

    /**
     * A gateway answering the given paths, 404 on {@code /sop/token} when it is not given (as before that endpoint),
     * and 403 forbidden to everything else.
     */
    private void startGateway(Map<String, Answer> answers) throws IOException {
        startGateway(path -> answers.getOrDefault(path, path.equals("/sop/token") && !answers.isEmpty()
                ? json(404, "{\"error\":\"not_found\",\"message\":\"No such path\"}")
                : json(403, FORBIDDEN)));
    }

    private void startGateway(java.util.function.Function<String, Answer> answers) throws IOException {
        gateway = HttpServer.create(new InetSocketAddress("localhost", 0), 0);
        gateway.createContext("/", exchange -> {
            String path = exchange.getRequestURI().getPath();
            requests.add(exchange.getRequestMethod() + " " + path);
            exchange.getRequestBody().readAllBytes();
            Answer answer = answers.apply(path);
            byte[] body = answer.body().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            if (answer.retryAfter() != null) {
                exchange.getResponseHeaders().set("Retry-After", answer.retryAfter());
            }
            exchange.sendResponseHeaders(answer.status(), body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        gateway.start();
    }

    private List<String> errors() {
        return log.list.stream().filter(event -> event.getLevel() == Level.ERROR).map(ILoggingEvent::getFormattedMessage).toList();
    }

    private static Answer json(int status, String body) {
        return new Answer(status, body, null);
    }

    private record Answer(int status, String body, String retryAfter) {}
}
