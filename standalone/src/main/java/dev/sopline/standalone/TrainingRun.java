package dev.sopline.standalone;

import java.io.IOException;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * The build's training start ({@code -Dsopline.training-run=true}): the platform runs once so that the JVM records, in
 * a class-data archive ({@code -XX:ArchiveClassesAtExit}), the classes a start loads, and later starts map them instead
 * of loading them again. It listens on ports that are free at the time, so that it cannot collide with a platform or a
 * test running beside the build, and it stops as soon as the platform answers healthy.
 */
final class TrainingRun {

    static final String PROPERTY = "sopline.training-run";

    /** Far longer than a start takes on a busy 2-core machine; a start that takes longer has failed. */
    private static final Duration HEALTHY_WITHIN = Duration.ofMinutes(4);

    private TrainingRun() {}

    static boolean requested() {
        return Boolean.getBoolean(PROPERTY);
    }

    /**
     * The environment for the training: the embedded broker even where {@code KAFKA_BOOTSTRAP_SERVERS} names a cluster
     * (the build must not write topics to it), and the HTTP and both broker ports set to ports that are free now.
     */
    static Map<String, String> environment(Map<String, String> env) throws IOException {
        Map<String, String> training = new HashMap<>(env);
        training.remove("KAFKA_BOOTSTRAP_SERVERS");
        // All three sockets are open together, so the system hands out three different ports.
        try (ServerSocket http = new ServerSocket(0);
             ServerSocket kafka = new ServerSocket(0);
             ServerSocket controller = new ServerSocket(0)) {
            training.put(StandaloneSettings.HTTP_PORT, String.valueOf(http.getLocalPort()));
            training.put(StandaloneSettings.KAFKA_PORT, String.valueOf(kafka.getLocalPort()));
            training.put(StandaloneSettings.CONTROLLER_PORT, String.valueOf(controller.getLocalPort()));
        }
        return training;
    }

    /**
     * Waits until {@code /actuator/health} answers UP, asked over HTTP as a user asks it, so that serving it is part
     * of what is recorded.
     *
     * @throws IllegalStateException if it does not within a few minutes
     */
    static void awaitHealthy(int httpPort) throws IOException, InterruptedException {
        HttpClient http = HttpClient.newHttpClient();
        HttpRequest health = HttpRequest.newBuilder(URI.create("http://localhost:" + httpPort + "/actuator/health")).build();
        long deadline = System.nanoTime() + HEALTHY_WITHIN.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                HttpResponse<String> answer = http.send(health, HttpResponse.BodyHandlers.ofString());
                if (answer.statusCode() == 200 && answer.body().contains("\"UP\"")) {
                    return;
                }
            } catch (ConnectException notListeningYet) {
                // the web server starts last
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("The training start was not healthy within " + HEALTHY_WITHIN);
    }
}
