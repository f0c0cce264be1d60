package dev.sopline.benchmark;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;

/**
 * The closed loop's HTTP calls, made the way its clients wait for them: one blocking call per client thread.
 *
 * <p>Two ways to make them, so the client's own share can be told from the platform's. {@link #URL_CONNECTION} (the
 * default) writes and reads on the calling thread over a kept-alive connection ({@link HttpURLConnection}). {@link #JDK}
 * is the JDK's {@link HttpClient}, which the benchmark used first: it is asynchronous underneath, so each call is handed
 * from the calling thread to its selector thread and back to an executor before the caller wakes. Measured on an idle
 * platform, one start at a time, with the load generator's quick compiler: 1.05 to 1.13 ms per start with the JDK's
 * client against 0.82 to 0.88 ms on the calling thread (docs/decisions.md, "The closed loop's HTTP client").
 */
enum BlockingHttp {

    URL_CONNECTION {
        @Override
        Answer send(String method, String url, String token, String json, Duration timeout) throws IOException {
            HttpURLConnection connection = (HttpURLConnection) URI.create(url).toURL().openConnection();
            connection.setRequestMethod(method);
            connection.setRequestProperty("X-SOP-Token", token);
            connection.setConnectTimeout((int) Duration.ofSeconds(5).toMillis());
            connection.setReadTimeout((int) timeout.toMillis());
            if (json != null) {
                byte[] body = json.getBytes(StandardCharsets.UTF_8);
                connection.setRequestProperty("Content-Type", "application/json");
                connection.setDoOutput(true);
                // Not streamed: the connection keeps the body and sends it with the head. Streamed, a start on an idle
                // platform took about a millisecond longer (2.1 to 2.5 ms against 1.0 to 1.3 ms); a raw socket that
                // writes the head and the body apart, with TCP_NODELAY, is answered as fast as one that writes them together.
                try (OutputStream out = connection.getOutputStream()) {
                    out.write(body);
                }
            }
            int status = connection.getResponseCode();
            // Read to the end, the error body too, so the connection goes back to the keep-alive cache for the next call.
            InputStream in = status < 400 ? connection.getInputStream() : connection.getErrorStream();
            String body = "";
            if (in != null) {
                try (in) {
                    body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                }
            }
            return new Answer(status, body);
        }
    },

    JDK {
        @Override
        Answer send(String method, String url, String token, String json, Duration timeout) throws IOException, InterruptedException {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).header("X-SOP-Token", token).timeout(timeout);
            request = json == null ? request.method(method, HttpRequest.BodyPublishers.noBody())
                    : request.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(json));
            HttpResponse<String> response = JdkClient.HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new Answer(response.statusCode(), response.body());
        }
    };

    /** Made on the first call through it: its selector thread is not started for a run that does not use it. */
    private static final class JdkClient {
        static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    }

    static {
        // Read once by the JDK's HTTP classes, when the first connection is made; the load generator makes none before
        // its first call through here. Idle connections kept alive per host: 5 by default, which would close and open a
        // connection per call for every client beyond the fifth. And no POST sent again by the connection itself when a
        // kept-alive connection fails: a start the gateway took before the connection broke would run twice, where the
        // loop should count one start error.
        System.setProperty("http.maxConnections", "256");
        System.setProperty("sun.net.http.retryPost", "false");
    }

    record Answer(int status, String body) {}

    /** One call, answered once the whole body is read; {@code json} null for a call without a body. */
    abstract Answer send(String method, String url, String token, String json, Duration timeout) throws IOException, InterruptedException;

    /** {@code --http-client}: {@code url-connection} or {@code jdk}. */
    static BlockingHttp named(String name) {
        try {
            return valueOf(name.toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Expected --http-client to be url-connection or jdk, but got " + name, e);
        }
    }

    String optionName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
