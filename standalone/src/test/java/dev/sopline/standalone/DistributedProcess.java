package dev.sopline.standalone;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One service of {@code docker-compose.yml} in a JVM of its own, started either as the image starts it or as the
 * README's start command starts the platform (see {@link Launch}).
 */
final class DistributedProcess implements AutoCloseable {

    /** How the process's JVM finds the service's classes. */
    enum Launch {
        /**
         * As the image does: the platform jar through Spring Boot's {@code PropertiesLauncher}, {@code LOADER_MAIN}
         * naming the service's main class.
         */
        IMAGE,
        /**
         * As the README's start command does: the extracted jar beside its libraries, with the class-data archive the
         * build records, the service's main class named on the command line. It serves the same classes and starts in
         * about half the time (a gateway: 8 s instead of 17 s on a 2-core host).
         */
        START_COMMAND
    }

    private static final String LAUNCHER = "org.springframework.boot.loader.launch.PropertiesLauncher";
    private static final Path EXTRACTED_JAR = Path.of("target", "sopline", "sopline-standalone.jar");
    private static final Path CLASS_DATA_ARCHIVE = Path.of("target", "sopline", "sopline.jsa");
    /** A gateway that can read from no replica takes a few seconds to say it is DOWN. */
    private static final Duration ANSWER_WITHIN = Duration.ofSeconds(10);

    private final String name;
    private final Path log;
    private final Map<String, String> env;
    private final String mainClass;
    private final Launch launch;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    private Process process;

    DistributedProcess(String name, Path workDir, String mainClass, Map<String, String> env) throws IOException {
        this(name, workDir, mainClass, env, Launch.START_COMMAND);
    }

    DistributedProcess(String name, Path workDir, String mainClass, Map<String, String> env, Launch launch) throws IOException {
        this.name = name;
        this.mainClass = mainClass;
        this.launch = launch;
        Path dataDir = Files.createDirectories(workDir.resolve(name));
        this.log = workDir.resolve(name + ".log");
        this.env = new java.util.HashMap<>(env);
        if (launch == Launch.IMAGE) {
            this.env.put("LOADER_MAIN", mainClass);
        }
        this.env.put("SOP_DATA_DIR", dataDir.toString());
    }

    void start() throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx384m", "-XX:TieredStopAtLevel=1"));
        if (launch == Launch.IMAGE) {
            command.addAll(List.of("-cp", built(StandaloneProcess.JAR), LAUNCHER));
        } else {
            command.addAll(List.of("-XX:SharedArchiveFile=" + built(CLASS_DATA_ARCHIVE), "-cp", built(EXTRACTED_JAR), mainClass));
        }
        ProcessBuilder builder = new ProcessBuilder(command);
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

    private static String built(Path file) {
        if (!Files.exists(file)) {
            throw new IllegalStateException("Expected " + file.toAbsolutePath() + "; it is built by the package phase");
        }
        return file.toString();
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
