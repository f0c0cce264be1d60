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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The platform started as a user starts it: the README's start command in a separate JVM process, run from the
 * project's root, on its own ports and data directory.
 */
final class StandaloneProcess implements AutoCloseable {

    static final Path JAR = Path.of("target", "sopline-standalone.jar");
    /** The tests run in the module's directory, the README's commands in the project's root. */
    static final Path PROJECT_ROOT = Path.of("..").toAbsolutePath().normalize();

    private static final Pattern START_COMMAND =
            Pattern.compile("(?m)^\\./mvnw -q -B package -DskipTests && (java .+)$");
    private static final Pattern FILE_ARGUMENT = Pattern.compile("-XX:SharedArchiveFile=(.+)|([^-].*\\.jar)");

    private final Path dataDir;
    private final Map<String, String> env;
    private Process process;

    StandaloneProcess(Path dataDir, Map<String, String> env) {
        this.dataDir = dataDir;
        this.env = env;
    }

    /**
     * Ports handed out in this JVM. The system may give a port it has just released to the next bind to port 0, and a
     * test that picks several before starting its processes would then give two of them the same one.
     */
    private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

    /** A port nothing listens on now, and that no other call in this JVM has handed out. */
    static int freePort() throws IOException {
        while (true) {
            try (ServerSocket socket = new ServerSocket(0)) {
                if (HANDED_OUT.add(socket.getLocalPort())) {
                    return socket.getLocalPort();
                }
            }
        }
    }

    void start() throws IOException {
        List<String> command = new ArrayList<>(readmeStartCommand());
        command.set(0, Path.of(System.getProperty("java.home"), "bin", "java").toString());
        ProcessBuilder builder = new ProcessBuilder(command).directory(PROJECT_ROOT.toFile());
        builder.environment().putAll(env);
        builder.environment().put("SOP_DATA_DIR", dataDir.toAbsolutePath().toString());
        builder.redirectErrorStream(true);
        builder.redirectOutput(ProcessBuilder.Redirect.appendTo(log().toFile()));
        process = builder.start();
    }

    /**
     * The java command that follows the build in the README's "Start the platform", as words.
     *
     * @throws IllegalStateException if the README has none, or if the build did not make a file it names
     */
    static List<String> readmeStartCommand() throws IOException {
        Matcher start = START_COMMAND.matcher(Files.readString(PROJECT_ROOT.resolve("README.md")));
        if (!start.find()) {
            throw new IllegalStateException("Expected the README to start the platform with: " + START_COMMAND.pattern());
        }
        List<String> command = List.of(start.group(1).trim().split(" +"));
        for (String argument : command) {
            Matcher file = FILE_ARGUMENT.matcher(argument);
            if (file.matches()) {
                Path built = PROJECT_ROOT.resolve(file.group(1) != null ? file.group(1) : file.group(2));
                if (!Files.exists(built)) {
                    throw new IllegalStateException("Expected " + built + "; it is built by the package phase");
                }
            }
        }
        return command;
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
