package dev.sopline.standalone;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/** The standalone jar run as a user runs it: a separate JVM process, on its own ports and data directory. */
final class StandaloneProcess implements AutoCloseable {

    static final Path JAR = Path.of("target", "sopline-standalone.jar");

    private final Path dataDir;
    private final Map<String, String> env;
    private Process process;

    StandaloneProcess(Path dataDir, Map<String, String> env) {
        this.dataDir = dataDir;
        this.env = env;
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    void start() throws IOException {
        if (!Files.exists(JAR)) {
            throw new IllegalStateException("Expected " + JAR.toAbsolutePath() + "; it is built by the package phase");
        }
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx1g", "-jar", JAR.toString());
        builder.environment().putAll(env);
        builder.environment().put("SOP_DATA_DIR", dataDir.toString());
        builder.redirectErrorStream(true);
        builder.redirectOutput(ProcessBuilder.Redirect.appendTo(log().toFile()));
        process = builder.start();
    }

    /** Everything the process printed, standard output and error together. */
    Path log() {
        return dataDir.resolveSibling(dataDir.getFileName() + ".log");
    }

    String output() throws IOException {
        return Files.exists(log()) ? Files.readString(log()) : "";
    }

    /** The exit code, if the process ended within the limit. */
    java.util.OptionalInt awaitExit(Duration limit) throws InterruptedException {
        return process.waitFor(limit.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)
                ? java.util.OptionalInt.of(process.exitValue())
                : java.util.OptionalInt.empty();
    }

    /** Waits until {@code /actuator/health} answers UP, as the README tells a user to check. */
    Duration awaitHealthy(String baseUrl, Duration limit) throws InterruptedException {
        HttpClient http = HttpClient.newHttpClient();
        long started = System.nanoTime();
        while (System.nanoTime() - started < limit.toNanos()) {
            if (!process.isAlive()) {
                throw new IllegalStateException("The standalone process exited with " + process.exitValue());
            }
            try {
                HttpResponse<String> health = http.send(HttpRequest.newBuilder(URI.create(baseUrl + "/actuator/health")).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (health.statusCode() == 200 && health.body().contains("UP")) {
                    return Duration.ofNanos(System.nanoTime() - started);
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(250);
        }
        throw new IllegalStateException("The standalone process was not healthy within " + limit);
    }

    /** SIGKILL: no shutdown hook runs, nothing is flushed or committed on the way out. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    /** SIGTERM, then the exit code if the process ended within the limit; killed if it did not. */
    java.util.OptionalInt stopWithin(Duration limit) throws InterruptedException {
        process.destroy();
        java.util.OptionalInt exit = awaitExit(limit);
        if (exit.isEmpty()) {
            kill();
        }
        return exit;
    }

    /** SIGTERM, as Ctrl-C or an orchestrator stops it. */
    int stop() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)) {
            process.destroyForcibly();
            return -1;
        }
        return process.exitValue();
    }

    @Override
    public void close() throws InterruptedException {
        if (process != null && process.isAlive()) {
            kill();
        }
    }
}
