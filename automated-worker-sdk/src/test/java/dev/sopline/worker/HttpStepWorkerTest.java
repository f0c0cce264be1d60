package dev.sopline.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.sun.net.httpserver.HttpServer;
import dev.sopline.schemas.json.Json;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

/**
 * HTTP mode against a gateway that refuses the token's role (403) or the token itself (401): the worker says once, at
 * ERROR, what it needs, and neither hammers the gateway nor runs steps it could not report. Against a gateway that asks
 * it to come back later (429, 503) or fails (5xx): it sends the step's result again, with the same idempotency key, and
 * does not run the step again. Against a gateway that refuses a result: the handler does not run again and again.
 */
class HttpStepWorkerTest {

    private static final String FORBIDDEN = "{\"error\":\"forbidden\",\"message\":\"Expected a token whose role allows it\"}";
    private static final String SUBMIT = "/sop/billing/inst-1/steps/pay/submit";
    private static final String DONE = "{\"id\":\"pay\",\"state\":\"completed\"}";
    private static final String ONE_STEP = """
            [{"instance_id":"inst-1","process":"billing","version":"1.0","step_id":"pay","run":"billing.pay","attempt":1,
              "inputs":{"amount":5}}]""";

    private final List<String> requests = new CopyOnWriteArrayList<>();
    private final List<Submit> submits = new CopyOnWriteArrayList<>();
    private final CountDownLatch stalled = new CountDownLatch(1);
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
        stalled.countDown();
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

    @Test
    void shouldReportOutputsTheGatewayRefusesAsAFailureNotToRetryWithoutRunningTheHandlerAgain() throws IOException {
        AtomicBoolean failed = new AtomicBoolean();
        startGateway(path -> switch (path) {
            case "/sop/token" -> WORKER_TOKEN;
            case "/sop/steps/pending" -> failed.get() ? json(200, "[]") : json(200, ONE_STEP);
            case SUBMIT -> {
                if (submits.get(submits.size() - 1).body().has("error")) {
                    failed.set(true);
                    yield json(200, DONE);
                }
                yield json(422, "{\"error\":\"invalid_outputs\",\"message\":\"Expected the output 'receipt' to be declared\"}");
            }
            default -> json(403, FORBIDDEN);
        });
        AtomicInteger handled = new AtomicInteger();

        try (SopWorker worker = httpWorker(handled)) {
            await().atMost(Duration.ofSeconds(5)).until(failed::get);
            await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(2)).until(() -> handled.get() == 1);
        }

        assertThat(submits).hasSize(2);
        assertThat(submits).as("both name the attempt they are for, so a late one cannot resolve the next")
                .allSatisfy(submit -> assertThat(submit.body().path("attempt").asInt()).isEqualTo(1));
        JsonNode error = submits.get(1).body().path("error");
        assertThat(error.path("code").asString()).isEqualTo("invalid_outputs");
        assertThat(error.path("retryable").asBoolean(true)).as("not retryable: the handler would return the same outputs").isFalse();
        assertThat(error.path("message").asString()).contains("Expected the output 'receipt' to be declared");
        assertThat(submits.get(1).idempotencyKey()).as("another body, another key").isNotEqualTo(submits.get(0).idempotencyKey());
        assertThat(errors()).singleElement().satisfies(message -> assertThat(message).contains("invalid_outputs", "inst-1", "billing.pay"));
    }

    @Test
    void shouldTryAResultAnswered5xxAFewTimesThenLeaveTheStepToOthersInsteadOfRunningItAgain() throws IOException {
        startGateway(Map.of("/sop/token", WORKER_TOKEN, "/sop/steps/pending", json(200, ONE_STEP),
                SUBMIT, json(500, "{\"error\":\"engine_error\",\"message\":\"The engine could not apply the command\"}")));
        AtomicInteger handled = new AtomicInteger();

        try (SopWorker worker = httpWorker(handled)) {
            await().atMost(Duration.ofSeconds(10)).until(() -> submits.size() == HttpStepWorker.SUBMIT_TRIES);
            // The feed still hands the step out: the worker leaves it alone, and does not run it or send it again.
            long polls = pendingPolls();
            await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3)).until(() -> submits.size() == HttpStepWorker.SUBMIT_TRIES);
            assertThat(pendingPolls()).isGreaterThan(polls);
        }

        assertThat(handled).as("the step ran once").hasValue(1);
        assertThat(submits).extracting(Submit::idempotencyKey).as("every try of one result has the same key").containsOnly(submits.get(0).idempotencyKey());
        assertThat(errors()).singleElement().satisfies(message -> assertThat(message).contains("500", "engine_error", "inst-1"));
    }

    @Test
    void shouldLeaveAStepToOthersWhenTheGatewayRefusesItsResult() throws IOException {
        startGateway(Map.of("/sop/token", WORKER_TOKEN, "/sop/steps/pending", json(200, ONE_STEP),
                SUBMIT, json(400, "{\"error\":\"invalid_payload\",\"message\":\"Malformed JSON\"}")));
        AtomicInteger handled = new AtomicInteger();

        try (SopWorker worker = httpWorker(handled)) {
            await().atMost(Duration.ofSeconds(5)).until(() -> pendingPolls() >= 3);
        }

        assertThat(handled).as("the step ran once, not at every poll").hasValue(1);
        assertThat(submits).hasSize(1);
        assertThat(errors()).singleElement().satisfies(message -> assertThat(message).contains("400", "invalid_payload"));
    }

    @Test
    void shouldSendARetriedSubmitWithTheSameIdempotencyKey() throws IOException {
        java.util.Deque<Answer> answers = new java.util.concurrent.ConcurrentLinkedDeque<>(List.of(
                json(502, "<html><body>Bad Gateway</body></html>"), json(200, DONE)));
        java.util.Deque<Answer> pending = new java.util.concurrent.ConcurrentLinkedDeque<>(List.of(json(200, ONE_STEP)));
        startGateway(path -> switch (path) {
            case "/sop/token" -> WORKER_TOKEN;
            case "/sop/steps/pending" -> pending.isEmpty() ? json(200, "[]") : pending.poll();
            case SUBMIT -> answers.poll();
            default -> json(403, FORBIDDEN);
        });
        AtomicInteger handled = new AtomicInteger();

        try (SopWorker worker = httpWorker(handled)) {
            await().atMost(Duration.ofSeconds(5)).until(answers::isEmpty);
        }

        assertThat(handled).hasValue(1);
        assertThat(submits).hasSize(2).extracting(Submit::idempotencyKey).containsOnly(submits.get(0).idempotencyKey());
        assertThat(submits.get(0).idempotencyKey()).matches("inst-1/pay/1/[0-9a-f]{16}");
    }

    @Test
    void shouldGoOnPollingWhenThePendingFeedAnswersAPageThatIsNotJson() throws IOException {
        java.util.Deque<Answer> pending = new java.util.concurrent.ConcurrentLinkedDeque<>(List.of(
                json(200, "<html><body>Please log in to the proxy</body></html>"), json(200, ONE_STEP)));
        startGateway(path -> switch (path) {
            case "/sop/token" -> WORKER_TOKEN;
            case "/sop/steps/pending" -> pending.isEmpty() ? json(200, "[]") : pending.poll();
            case SUBMIT -> json(200, DONE);
            default -> json(403, FORBIDDEN);
        });
        AtomicInteger handled = new AtomicInteger();

        try (SopWorker worker = httpWorker(handled)) {
            await().atMost(Duration.ofSeconds(5)).until(() -> handled.get() == 1 && submits.size() == 1);
            assertThat(worker.isRunning()).isTrue();
        }

        assertThat(log.list).filteredOn(event -> event.getLevel() == Level.WARN).map(ILoggingEvent::getFormattedMessage)
                .anySatisfy(message -> assertThat(message).contains("not JSON", "Please log in"));
    }

    @Test
    void shouldLogOneErrorAndBackOffWhenTheGatewayRefusesTheTokenWith401() throws IOException {
        startGateway(path -> json(401, "{\"error\":\"unauthorized\",\"message\":\"Expected a valid token\"}"));
        AtomicInteger handled = new AtomicInteger();

        try (SopWorker worker = httpWorker(handled)) {
            await().atMost(Duration.ofSeconds(5)).until(() -> !requests.isEmpty());
            await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(2)).until(() -> requests.size() == 1);
            assertThat(worker.isRunning()).as("the worker keeps running, to try again later").isTrue();
        }

        assertThat(errors()).singleElement().satisfies(message -> assertThat(message)
                .contains("401", "revoked or expired", "role 'worker'", "every " + HttpStepWorker.FORBIDDEN_BACKOFF.toSeconds() + " s")
                .doesNotContain("a-token"));
        assertThat(log.list).filteredOn(event -> event.getLevel() == Level.WARN).isEmpty();
    }

    @Test
    void shouldGiveUpOnAnAnswerWhoseBodyStallsAndPollAgain() throws Exception {
        java.util.Deque<Answer> pending = new java.util.concurrent.ConcurrentLinkedDeque<>(List.of(STALL, json(200, ONE_STEP)));
        startGateway(path -> switch (path) {
            case "/sop/token" -> WORKER_TOKEN;
            case "/sop/steps/pending" -> pending.isEmpty() ? json(200, "[]") : pending.poll();
            case SUBMIT -> json(200, DONE);
            default -> json(403, FORBIDDEN);
        });
        AtomicInteger handled = new AtomicInteger();
        HttpStepWorker worker = new HttpStepWorker("http://localhost:" + gateway.getAddress().getPort(), "a-token",
                Map.of("billing.pay", step -> Map.of("receipt", "r-" + handled.incrementAndGet())), 1, Duration.ofSeconds(1),
                Duration.ofMillis(500));
        Thread thread = new Thread(worker, "stalled-gateway-worker");
        thread.start();
        try {
            await().atMost(Duration.ofSeconds(5)).until(() -> submits.size() == 1);
        } finally {
            worker.stop(Duration.ofSeconds(1));
            thread.join(5_000);
        }

        assertThat(handled).hasValue(1);
        assertThat(log.list).filteredOn(event -> event.getLevel() == Level.WARN).map(ILoggingEvent::getFormattedMessage)
                .anySatisfy(message -> assertThat(message).contains("no complete answer", "500 ms"));
    }

    private long pendingPolls() {
        return requests.stream().filter(request -> request.equals("GET /sop/steps/pending")).count();
    }

    @Test
    void shouldFollowTheFeedsNextLinkWhenItsFirstPageHoldsNothingToRun() throws IOException {
        // A first page that ended early (a page holds a mebibyte of data at most) with nothing this worker may run.
        startGatewayAnswering((exchange, path, query) -> {
            requests.add(exchange.getRequestMethod() + " " + path + (query == null ? "" : "?" + query));
            if (path.equals("/sop/token")) {
                return WORKER_TOKEN;
            } else if (path.equals("/sop/steps/pending") && !query.contains("cursor=")) {
                // The link names another host, as behind a proxy: the worker keeps to its own base URL.
                exchange.getResponseHeaders().set("Link", "<http://proxy.internal:9999/sop/steps/pending?type=automated&run=billing.pay&cursor=c1>; rel=\"next\"");
                return json(200, "[]");
            } else if (path.equals("/sop/steps/pending")) {
                return json(200, ONE_STEP);
            }
            return json(200, DONE);
        });
        AtomicInteger handled = new AtomicInteger();

        try (SopWorker worker = httpWorker(handled)) {
            await().atMost(Duration.ofSeconds(10)).until(() -> handled.get() >= 1);
        }

        assertThat(requests).contains("GET /sop/steps/pending?type=automated&run=billing.pay&cursor=c1");
    }

    @Test
    void shouldTakeNewStepsWhileOneHandlerIsStillRunning() throws IOException {
        // The first step's handler hangs; a second step reaches the feed after it started.
        Set<String> submitted = ConcurrentHashMap.newKeySet();
        CountDownLatch firstStarted = new CountDownLatch(1);
        startGateway(path -> switch (path) {
            case "/sop/token" -> WORKER_TOKEN;
            case "/sop/steps/pending" -> json(200, pendingOf(firstStarted.getCount() == 0 ? List.of("inst-1", "inst-2") : List.of("inst-1"), submitted));
            default -> {
                submitted.add(path.split("/")[3]);
                yield json(200, DONE);
            }
        });
        Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();

        try (SopWorker worker = SopWorker.builder().http("http://localhost:" + gateway.getAddress().getPort(), "a-token")
                .handle("billing.pay", step -> {
                    runs.computeIfAbsent(step.instanceId(), ignored -> new AtomicInteger()).incrementAndGet();
                    if (step.instanceId().equals("inst-1")) {
                        firstStarted.countDown();
                        stalled.await();
                    }
                    return Map.of("receipt", "r-1");
                })
                .closeTimeout(Duration.ofMillis(500))
                .start()) {
            await().atMost(Duration.ofSeconds(10)).until(() -> submitted.contains("inst-2"));
            // The feed goes on listing the hung step: it is not run a second time here meanwhile.
            await().during(Duration.ofMillis(1_500)).atMost(Duration.ofSeconds(3)).until(() -> runs.get("inst-1").get() == 1);
        }

        assertThat(runs.get("inst-2")).hasValue(1);
        assertThat(submitted).as("the hung step, cut short by the close, submits nothing").doesNotContain("inst-1");
    }

    @Test
    void shouldNotRunAStepAgainWhenTheFeedsNextPageFailsAfterIt() throws IOException {
        // Page one holds the step and links to a page two, which answers 503 the first time.
        AtomicInteger pageTwos = new AtomicInteger();
        AtomicInteger pageOnes = new AtomicInteger();
        Set<String> submitted = ConcurrentHashMap.newKeySet();
        startGatewayAnswering((exchange, path, query) -> {
            if (path.equals("/sop/token")) {
                return WORKER_TOKEN;
            } else if (path.equals("/sop/steps/pending") && !query.contains("cursor=")) {
                pageOnes.incrementAndGet();
                exchange.getResponseHeaders().set("Link", "</sop/steps/pending?type=automated&run=billing.pay&cursor=c1>; rel=\"next\"");
                return json(200, submitted.isEmpty() ? ONE_STEP : "[]");
            } else if (path.equals("/sop/steps/pending")) {
                return pageTwos.incrementAndGet() == 1 ? new Answer(503, "{\"error\":\"unavailable\",\"message\":\"busy\"}", "1") : json(200, "[]");
            }
            submitted.add(path);
            return json(200, DONE);
        });
        AtomicInteger handled = new AtomicInteger();

        try (SopWorker worker = SopWorker.builder().http("http://localhost:" + gateway.getAddress().getPort(), "a-token")
                .handle("billing.pay", step -> {
                    handled.incrementAndGet();
                    // Still running when the worker reads page one again after the 503's wait.
                    await().atMost(Duration.ofSeconds(5)).until(() -> pageOnes.get() >= 2);
                    return Map.of("receipt", "r-1");
                })
                .closeTimeout(Duration.ofSeconds(1))
                .start()) {
            await().atMost(Duration.ofSeconds(10)).until(() -> !submitted.isEmpty());
            await().during(Duration.ofMillis(700)).atMost(Duration.ofSeconds(2)).until(() -> handled.get() == 1);
        }

        assertThat(handled).as("the step handed out before page two failed ran once").hasValue(1);
    }

    @Test
    void shouldStopWithinItsCloseTimeoutWhileAHandlerHangs() throws IOException {
        startGateway(Map.of("/sop/token", WORKER_TOKEN, "/sop/steps/pending", json(200, ONE_STEP)));
        CountDownLatch started = new CountDownLatch(1);
        SopWorker worker = SopWorker.builder().http("http://localhost:" + gateway.getAddress().getPort(), "a-token")
                .handle("billing.pay", step -> {
                    started.countDown();
                    stalled.await();
                    return Map.of("receipt", "r-1");
                })
                .closeTimeout(Duration.ofMillis(500))
                .start();
        await().atMost(Duration.ofSeconds(5)).until(() -> started.getCount() == 0);

        long closing = System.nanoTime();
        worker.close();

        assertThat(worker.isRunning()).isFalse();
        assertThat(Duration.ofNanos(System.nanoTime() - closing)).isLessThan(Duration.ofSeconds(5));
        assertThat(submits).as("the step cut short reports nothing: it stays in the feed for others").isEmpty();
    }

    @Test
    void shouldTakeTheStepsOfEveryRunWhileOneAlwaysHasStepsWaiting() throws IOException {
        // billing.pay always has a step waiting, a new one as each is submitted; mail.send has one.
        AtomicInteger nextPayment = new AtomicInteger(1);
        Set<String> submitted = ConcurrentHashMap.newKeySet();
        startGatewayAnswering((exchange, path, query) -> {
            if (path.equals("/sop/token")) {
                return WORKER_TOKEN;
            } else if (path.equals("/sop/steps/pending")) {
                return json(200, query.contains("run=mail.send")
                        ? (submitted.contains("mail-1") ? "[]" : step("mail-1", "notify", "mail.send"))
                        : step("pay-" + nextPayment.get(), "pay", "billing.pay"));
            }
            String instance = path.split("/")[3];
            submitted.add(instance);
            if (instance.startsWith("pay-")) {
                nextPayment.incrementAndGet();
            }
            return json(200, DONE);
        });

        try (SopWorker worker = SopWorker.builder().http("http://localhost:" + gateway.getAddress().getPort(), "a-token")
                .handle("billing.pay", step -> Map.of("receipt", "r"))
                .handle("mail.send", step -> Map.of("sent", true))
                .concurrency(1)
                .closeTimeout(Duration.ofSeconds(1))
                .start()) {
            await().atMost(Duration.ofSeconds(10)).until(() -> submitted.contains("mail-1") && submitted.contains("pay-2"));
        }
    }

    private static String step(String instance, String stepId, String run) {
        return "[{\"instance_id\":\"%s\",\"process\":\"billing\",\"version\":\"1.0\",\"step_id\":\"%s\",\"run\":\"%s\",\"attempt\":1,\"inputs\":{}}]"
                .formatted(instance, stepId, run);
    }

    /** A page of the feed with a step for each instance not submitted yet. */
    private static String pendingOf(List<String> instances, Set<String> submitted) {
        return instances.stream().filter(id -> !submitted.contains(id))
                .map(id -> "{\"instance_id\":\"%s\",\"process\":\"billing\",\"version\":\"1.0\",\"step_id\":\"pay\",\"run\":\"billing.pay\",\"attempt\":1,\"inputs\":{}}".formatted(id))
                .collect(java.util.stream.Collectors.joining(",", "[", "]"));
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
            byte[] request = exchange.getRequestBody().readAllBytes();
            if (exchange.getRequestMethod().equals("POST")) {
                submits.add(new Submit(path, Json.mapper().readTree(request), exchange.getRequestHeaders().getFirst("Idempotency-Key")));
            }
            Answer answer = answers.apply(path);
            byte[] body = answer.body().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", answer.body().startsWith("<") ? "text/html" : "application/json");
            if (answer == STALL) {
                // The headers and a first byte, then nothing: a gateway, or a proxy, that stalls mid-answer.
                exchange.sendResponseHeaders(200, 100);
                exchange.getResponseBody().write('[');
                exchange.getResponseBody().flush();
                try {
                    stalled.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                exchange.close();
                return;
            }
            if (answer.retryAfter() != null) {
                exchange.getResponseHeaders().set("Retry-After", answer.retryAfter());
            }
            exchange.sendResponseHeaders(answer.status(), body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        gateway.setExecutor(Executors.newCachedThreadPool());
        gateway.start();
    }

    /** What a fake gateway answers one request: its exchange (for headers of the answer), path and raw query. */
    private interface Answering {
        Answer answer(com.sun.net.httpserver.HttpExchange exchange, String path, String query) throws IOException;
    }

    /** A gateway that answers each request as {@code answering} says, in JSON. */
    private void startGatewayAnswering(Answering answering) throws IOException {
        gateway = HttpServer.create(new InetSocketAddress("localhost", 0), 0);
        gateway.createContext("/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            Answer answer = answering.answer(exchange, exchange.getRequestURI().getPath(), exchange.getRequestURI().getRawQuery());
            byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            if (answer.retryAfter() != null) {
                exchange.getResponseHeaders().set("Retry-After", answer.retryAfter());
            }
            exchange.sendResponseHeaders(answer.status(), bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        gateway.setExecutor(Executors.newCachedThreadPool());
        gateway.start();
    }

    private List<String> errors() {
        return log.list.stream().filter(event -> event.getLevel() == Level.ERROR).map(ILoggingEvent::getFormattedMessage).toList();
    }

    private static Answer json(int status, String body) {
        return new Answer(status, body, null);
    }

    private record Answer(int status, String body, String retryAfter) {}

    private static final Answer STALL = new Answer(200, "", null);
    private static final Answer WORKER_TOKEN = json(200, "{\"id\":\"tok-1\",\"name\":\"w\",\"role\":\"worker\",\"workspace\":\"default\"}");

    /** A submit as the gateway received it. */
    private record Submit(String path, JsonNode body, String idempotencyKey) {}
}
