package dev.sopline.benchmark;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.List;

/**
 * A LittleHorse node (its server and a Kafka broker set up as the platform's, one JVM) on fresh ports and a fresh
 * directory, started from the {@code benchmark-littlehorse} module's build ({@code ./mvnw package -Plittlehorse}) with a
 * Java 25 runtime, which LittleHorse's server needs. Its JVM gets the platform's heap and collector, so the two engines
 * run with the same memory.
 */
final class LittleHorseProcess implements AutoCloseable {

    private static final String MAIN = "dev.sopline.benchmark.littlehorse.LittleHorseNode";

    private final Process process;
    private final Path dataDir;
    private final Path log;
    final int apiPort;
    private final int healthPort;

    private LittleHorseProcess(Process process, Path dataDir, Path log, int apiPort, int healthPort) {
        this.process = process;
        this.dataDir = dataDir;
        this.log = log;
        this.apiPort = apiPort;
        this.healthPort = healthPort;
    }

    /**
     * @param javaExecutable a Java 25 (or later) {@code java} executable
     * @param nodeBuild the {@code benchmark-littlehorse/target} directory: {@code littlehorse-node.jar} and {@code lib/}
     */
    static LittleHorseProcess start(Path javaExecutable, Path nodeBuild) throws IOException {
        Path jar = nodeBuild.resolve("littlehorse-node.jar");
        if (!Files.isRegularFile(jar) || !Files.isDirectory(nodeBuild.resolve("lib"))) {
            throw new IllegalStateException("Expected the LittleHorse node's build in " + nodeBuild.toAbsolutePath()
                    + "; build it with './mvnw -q -B package -DskipTests -Plittlehorse'");
        }
        int apiPort = PlatformProcess.freePort();
        int healthPort = PlatformProcess.freePort();
        int internalPort = PlatformProcess.freePort();
        int kafkaPort = PlatformProcess.freePort();
        Path dataDir = Files.createTempDirectory("littlehorse-benchmark");
        // LittleHorse's settings as its standalone image sets them (12 partitions, one replica), on this node's ports.
        Path config = dataDir.resolve("server.config");
        Files.writeString(config, String.join("\n",
                "LHS_KAFKA_BOOTSTRAP_SERVERS=localhost:" + kafkaPort,
                "LHS_CLUSTER_ID=bench",
                "LHS_INSTANCE_ID=1",
                "LHS_REPLICATION_FACTOR=1",
                "LHS_CLUSTER_PARTITIONS=12",
                "LHS_SHOULD_CREATE_TOPICS=true",
                "LHS_STATE_DIR=" + dataDir.resolve("lh"),
                "LHS_HEALTH_SERVICE_PORT=" + healthPort,
                "LHS_INTERNAL_BIND_PORT=" + internalPort,
                "LHS_INTERNAL_ADVERTISED_PORT=" + internalPort,
                "LHS_INTERNAL_ADVERTISED_HOST=localhost",
                "LHS_LISTENERS=PLAIN:" + apiPort,
                "LHS_LISTENERS_PROTOCOL_MAP=PLAIN:PLAIN",
                "LHS_ADVERTISED_LISTENERS=PLAIN://localhost:" + apiPort) + "\n");
        ProcessBuilder builder = new ProcessBuilder(List.of(javaExecutable.toString(), "-Xmx512m", "-XX:+UseParallelGC",
                "-cp", jar + java.io.File.pathSeparator + nodeBuild.resolve("lib") + "/*", MAIN,
                dataDir.toString(), String.valueOf(kafkaPort), String.valueOf(PlatformProcess.freePort()), config.toString()));
        Path log = dataDir.resolveSibling(dataDir.getFileName() + ".log");
        builder.redirectErrorStream(true);
        builder.redirectOutput(log.toFile());
        Process process = builder.start();
        Runtime.getRuntime().addShutdownHook(new Thread(process::destroy));
        return new LittleHorseProcess(process, dataDir, log, apiPort, healthPort);
    }

    long pid() {
        return process.pid();
    }

    /** Waits until LittleHorse says it is ready: its stream threads are running and its API serves. */
    Duration awaitReady(Duration limit) throws InterruptedException {
        HttpClient http = HttpClient.newHttpClient();
        long started = System.nanoTime();
        while (System.nanoTime() - started < limit.toNanos()) {
            if (!process.isAlive()) {
                throw new IllegalStateException("LittleHorse exited with " + process.exitValue() + "; its output is in " + log);
            }
            try {
                HttpResponse<String> ready = http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + healthPort + "/readiness")).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (ready.statusCode() == 200) {
                    return Duration.ofNanos(System.nanoTime() - started);
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("LittleHorse was not ready within " + limit + "; its output is in " + log);
    }

    /** CPU time LittleHorse's JVM (server and broker) has used so far. */
    Duration cpuTime() {
        return process.info().totalCpuDuration().orElse(Duration.ZERO);
    }

    /** CPU time so far of the node's JIT compilers and garbage collector, as {@link PlatformProcess#jvmThreadsCpu()} reads the platform's. */
    Map<String, Duration> jvmThreadsCpu() {
        return PlatformProcess.jvmThreadsCpu(process.pid());
    }

    @Override
    public void close() throws InterruptedException {
        PlatformProcess.stop(process, dataDir);
    }
}
