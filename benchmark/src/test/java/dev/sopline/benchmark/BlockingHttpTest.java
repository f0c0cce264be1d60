package dev.sopline.benchmark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

class BlockingHttpTest {

    private HttpServer server;
    private final Set<Integer> clientPorts = ConcurrentHashMap.newKeySet();
    private String base;

    @BeforeEach
    void serve() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        // Answers 201 with what it was sent, or 422 with an error body for a path under /refuse.
        server.createContext("/", exchange -> {
            clientPorts.add(exchange.getRemoteAddress().getPort());
            String sent = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            String answer = exchange.getRequestMethod() + " " + exchange.getRequestHeaders().getFirst("X-SOP-Token") + " "
                    + exchange.getRequestHeaders().getFirst("Content-Type") + " " + sent;
            byte[] body = answer.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(exchange.getRequestURI().getPath().startsWith("/refuse") ? 422 : 201, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        base = "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    @ParameterizedTest
    @EnumSource(BlockingHttp.class)
    void sendsTheTokenAndTheBodyAndReadsTheAnswer(BlockingHttp http) throws Exception {
        BlockingHttp.Answer posted = http.send("POST", base + "/start", "t0ken", "{\"inputs\": {}}", Duration.ofSeconds(5));
        BlockingHttp.Answer read = http.send("GET", base + "/read", "t0ken", null, Duration.ofSeconds(5));

        assertThat(posted).isEqualTo(new BlockingHttp.Answer(201, "POST t0ken application/json {\"inputs\": {}}"));
        assertThat(read).isEqualTo(new BlockingHttp.Answer(201, "GET t0ken null "));
    }

    @ParameterizedTest
    @EnumSource(BlockingHttp.class)
    void anErrorAnswerComesWithItsBody(BlockingHttp http) throws Exception {
        assertThat(http.send("POST", base + "/refuse", "t0ken", "{}", Duration.ofSeconds(5)))
                .isEqualTo(new BlockingHttp.Answer(422, "POST t0ken application/json {}"));
    }

    @Test
    void callsOnTheCallingThreadKeepTheirConnection() throws Exception {
        for (int call = 0; call < 10; call++) {
            BlockingHttp.URL_CONNECTION.send("POST", base + (call % 3 == 0 ? "/refuse" : "/start"), "t0ken", "{}", Duration.ofSeconds(5));
        }

        assertThat(clientPorts).hasSize(1);
    }

    @Test
    void aStartWhoseConnectionBreaksBeforeItsAnswerIsSentOnce() throws Exception {
        AtomicInteger requests = new AtomicInteger();
        try (ServerSocket hangsUp = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread server = new Thread(() -> {
                // Takes each request whole, then closes its connection without an answer.
                while (!hangsUp.isClosed()) {
                    try (Socket connection = hangsUp.accept()) {
                        BufferedReader in = new BufferedReader(new InputStreamReader(connection.getInputStream(), StandardCharsets.UTF_8));
                        if (in.readLine() != null) {
                            requests.incrementAndGet();
                        }
                        while (!in.readLine().isEmpty()) {
                            // the head, up to its empty line
                        }
                        in.read(new char[2]);
                    } catch (IOException | NullPointerException closed) {
                        // the test ended, or the client went away
                    }
                }
            });
            server.setDaemon(true);
            server.start();

            assertThatThrownBy(() -> BlockingHttp.URL_CONNECTION.send("POST", "http://127.0.0.1:" + hangsUp.getLocalPort() + "/start",
                    "t0ken", "{}", Duration.ofSeconds(5))).isInstanceOf(IOException.class);
            Thread.sleep(200);
        }

        assertThat(requests).hasValue(1);
    }

    @Test
    void theClientIsChosenByItsOptionName() {
        assertThat(BlockingHttp.named("url-connection")).isEqualTo(BlockingHttp.URL_CONNECTION);
        assertThat(BlockingHttp.named("jdk")).isEqualTo(BlockingHttp.JDK);
        assertThat(BlockingHttp.JDK.optionName()).isEqualTo("jdk");
        assertThatThrownBy(() -> BlockingHttp.named("netty")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("url-connection or jdk");
    }
}
