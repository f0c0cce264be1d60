package dev.sopline.standalone;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * One service of {@code docker-compose.yml} run as the image runs it: the platform jar started through Spring Boot's
 * {@code PropertiesLauncher}, {@code LOADER_MAIN} naming the service's main class, in a JVM of its own.
 */
final class DistributedProcess implements AutoCloseable {

    private static final String LAUNCHER = "org.springframework.boot.loader.launch.PropertiesLauncher";
    /** A gateway that can read from no replica takes a few seconds to say it is DOWN. */
    private static final Duration ANSWER_WITHIN = Duration.ofSeconds(10);

    private final String name;
    private final Path log;
    private final Map<String, String> env;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    private Process process;

    DistributedProcess(String name, Path workDir, String mainClass, Map<String, String> env) throws IOException {
        this.name = name;
        Path dataDir = Files.createDirectories(workDir.resolve(name));
        this.log = workDir.resolve(name + ".log");
        this.env = new java.util.HashMap<>(env);
        this.env.put("LOADER_MAIN", mainClass);
        this.env.put("SOP_DATA_DIR", dataDir.toString());
    }

    void start() throws IOException {
        if (!Files.exists(StandaloneProcess.JAR)) {
            throw new IllegalStateException("Expected " + StandaloneProcess.JAR.toAbsolutePath() + "; it is built by the package phase");
        }
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx384m", "-XX:TieredStopAtLevel=1", "-cp", StandaloneProcess.JAR.toString(), LAUNCHER);
        builder.environment().putAll(env);
        builder.redirectErrorStream(true);
        builder.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        process = builder.start();
    }

    /** Whether a GET of the URL answers 200 now, as the compose health checks ask. */
    boolean answers(String url) {
        if (process == null || !process.isAlive()) {
            throw new IllegalStateException("Expected " + name + " to run, but it exited; see " + log);
        }
        try {
            return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(ANSWER_WITHIN).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException notYet) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Whether the process answers HTTP at the URL at all, whatever the status. */
    boolean listens(String url) {
        try {
            http.send(HttpRequest.newBuilder(URI.create(url)).timeout(ANSWER_WITHIN).build(), HttpResponse.BodyHandlers.discarding());
            return true;
        } catch (IOException notYet) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** SIGKILL: the replica leaves no goodbye to the group, commits nothing, closes no connection cleanly. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    @Override
    public void close() throws InterruptedException {
        if (process != null && process.isAlive()) {
            kill();
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
