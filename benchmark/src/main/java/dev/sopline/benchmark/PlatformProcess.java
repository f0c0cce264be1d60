package dev.sopline.benchmark;

import java.io.IOException;
import java.io.UncheckedIOException;
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
import org.apache.kafka.common.utils.Utils;

/** The standalone platform in its own JVM, as users run it, on fresh ports and a fresh data directory. */
final class PlatformProcess implements AutoCloseable {

    static final String TOKEN = "benchmark-token";

    private final Process process;
    private long peakBeforeReset = -1;
    final int httpPort;
    final int kafkaPort;
    /** Where the platform's output goes: what to read when it does not come up. Beside the data directory, and kept. */
    private final Path log;
    /** The platform's data directory, deleted once the platform has stopped. */
    private final Path dataDir;

    private PlatformProcess(Process process, int httpPort, int kafkaPort, Path log, Path dataDir) {
        this.process = process;
        this.httpPort = httpPort;
        this.kafkaPort = kafkaPort;
        this.log = log;
        this.dataDir = dataDir;
    }

    /**
     * @param javaOptions options for the platform's JVM besides {@code -Xmx512m} and the collector, for example
     *     {@code -XX:NativeMemoryTracking=summary} to see its memory with {@code jcmd <pid> VM.native_memory summary}
     */
    static PlatformProcess start(Path jar, List<String> javaOptions, Map<String, String> extraEnv) throws IOException {
        int httpPort = freePort();
        int kafkaPort = freePort();
        Path dataDir = Files.createTempDirectory("sopline-benchmark");
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx512m"); // as the README starts it
        // The README's collector, unless the options choose one: the JVM refuses two.
        if (javaOptions.stream().noneMatch(option -> option.matches("-XX:\\+Use\\w+GC"))) {
            command.add("-XX:+UseParallelGC");
        }
        // The class-data archive the build trains beside the extracted jar, as the README's start command uses it.
        Path archive = jar.resolveSibling("sopline.jsa");
        if (Files.exists(archive)) {
            command.add("-XX:SharedArchiveFile=" + archive);
        }
        command.addAll(javaOptions);
        command.addAll(List.of("-jar", jar.toString()));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().putAll(Map.of(
                "SOP_DATA_DIR", dataDir.toString(),
                "SOP_HTTP_PORT", String.valueOf(httpPort),
                "SOP_KAFKA_PORT", String.valueOf(kafkaPort),
                "SOP_KAFKA_CONTROLLER_PORT", String.valueOf(freePort()),
                "SOP_BOOTSTRAP_TOKEN", TOKEN,
                "SOP_RATE_LIMIT_PER_SECOND", "1000000",
                "SOP_RATE_LIMIT_BURST", "1000000",
                "SOP_JUDGMENT_WORKER", "false"));
        builder.environment().putAll(extraEnv);
        builder.redirectErrorStream(true);
        Path log = dataDir.resolveSibling(dataDir.getFileName() + ".log");
        builder.redirectOutput(log.toFile());
        Process process = builder.start();
        // A benchmark stopped half-way does not leave a platform running behind it.
        Runtime.getRuntime().addShutdownHook(new Thread(process::destroy));
        return new PlatformProcess(process, httpPort, kafkaPort, log, dataDir);
    }

    long pid() {
        return process.pid();
    }

    String baseUrl() {
        return "http://localhost:" + httpPort;
    }

    String bootstrapServers() {
        return "localhost:" + kafkaPort;
    }

    Duration awaitHealthy(Duration limit) throws InterruptedException {
        HttpClient http = HttpClient.newHttpClient();
        long started = System.nanoTime();
        while (System.nanoTime() - started < limit.toNanos()) {
            if (!process.isAlive()) {
                throw new IllegalStateException("The platform exited with " + process.exitValue() + "; its output is in " + log);
            }
            try {
                HttpResponse<String> health = http.send(HttpRequest.newBuilder(URI.create(baseUrl() + "/actuator/health")).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (health.statusCode() == 200 && health.body().contains("UP")) {
                    return Duration.ofNanos(System.nanoTime() - started);
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("The platform was not healthy within " + limit);
    }

    /** Peak resident set size of the platform's JVM so far, in MiB; -1 where Linux's {@code /proc} is not there. */
    long peakRssMiB() {
        return Math.max(peakBeforeReset, peakSinceResetMiB());
    }

    /**
     * Starts a new peak at the current resident set size, as {@code echo 5 > /proc/<pid>/clear_refs} does (Linux 4.0
     * and later), so that {@link #peakSinceResetMiB()} tells one case's peak; {@link #peakRssMiB()} keeps the run's.
     */
    void resetPeakRss() {
        peakBeforeReset = peakRssMiB();
        try {
            Files.writeString(Path.of("/proc", String.valueOf(process.pid()), "clear_refs"), "5");
        } catch (IOException e) {
            // Not Linux, or an older kernel: the peak then stays the run's, as the report says.
        }
    }

    /** Peak resident set size (Linux {@code VmHWM}) since {@link #resetPeakRss()} or the start, in MiB; -1 elsewhere. */
    long peakSinceResetMiB() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", String.valueOf(process.pid()), "status"))) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024;
                }
            }
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
        return -1;
    }

    /** CPU time the platform's JVM has used so far, all threads, user and system. */
    Duration cpuTime() {
        return process.info().totalCpuDuration().orElse(Duration.ZERO);
    }

    /**
     * CPU time so far of the JVM's own threads, which JMX does not list: the JIT compilers ({@code C1/C2 CompilerThread})
     * and the garbage collector ({@code GC Thread#}, G1's concurrent threads, and the VM thread, which runs the
     * collector's pauses), by group. Read from {@code /proc/<pid>/task}, in the kernel's clock ticks (1/100 s); empty
     * where there is no {@code /proc}.
     */
    Map<String, Duration> jvmThreadsCpu() {
        return jvmThreadsCpu(process.pid());
    }

    /** {@link #jvmThreadsCpu()} of any JVM on this machine, by its process id. */
    static Map<String, Duration> jvmThreadsCpu(long pid) {
        Map<String, Duration> byGroup = new java.util.TreeMap<>();
        Path tasks = Path.of("/proc", String.valueOf(pid), "task");
        try (var threads = Files.list(tasks)) {
            threads.forEach(thread -> {
                try {
                    String group = jvmThreadGroup(Files.readString(thread.resolve("comm")).strip());
                    if (group != null) {
                        byGroup.merge(group, Duration.ofMillis(10 * ticksOf(Files.readString(thread.resolve("stat")))), Duration::plus);
                    }
                } catch (IOException ended) {
                    // the thread ended meanwhile
                }
            });
        } catch (IOException | UncheckedIOException noProc) {
            return Map.of();
        }
        return byGroup;
    }

    static final String JIT = "platform JVM: JIT compiler threads";
    static final String GC = "platform JVM: GC threads";

    static String jvmThreadGroup(String threadName) {
        if (threadName.startsWith("C1 CompilerThre") || threadName.startsWith("C2 CompilerThre")) {
            return JIT;
        }
        if (threadName.startsWith("GC Thread#") || threadName.startsWith("G1 ") || threadName.equals("VM Thread")) {
            return GC;
        }
        return null;
    }

    /** User plus system ticks from a {@code stat} line; the thread's name, in brackets, may hold spaces. */
    static long ticksOf(String stat) {
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        // After the name: state is field 3 of the line, utime 14 and stime 15.
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @Override
    public void close() throws InterruptedException {
        stop(process, dataDir);
    }

    /** Stops the platform, waiting for it to exit, then deletes its data directory: a run leaves nothing of it behind. */
    static void stop(Process process, Path dataDir) throws InterruptedException {
        process.destroy();
        if (!process.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor();
        }
        // Nothing the report or the log names is in it; a run leaves the broker's and the engine's data otherwise.
        try {
            Utils.delete(dataDir.toFile());
        } catch (IOException e) {
            // The measurements are what matters: a directory left behind is not a reason to lose them.
            System.err.println("Could not delete the platform's data directory " + dataDir + ": " + e);
        }
    }
}
