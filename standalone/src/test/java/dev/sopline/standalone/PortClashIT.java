package dev.sopline.standalone;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The standalone jar started while one of its ports is taken: it exits at once, non-zero, with one line naming the
 * setting to change, and has written nothing, not even the bootstrap token.
 */
class PortClashIT {

    /** Holds the data directory and the platform's log beside it; kept when the test fails, to read the log. */
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path workDir;

    @ParameterizedTest
    @ValueSource(strings = {"SOP_HTTP_PORT", "SOP_KAFKA_PORT", "SOP_KAFKA_CONTROLLER_PORT"})
    void shouldExitWithOneLineNamingTheSettingWhenItsPortIsTaken(String variable) throws Exception {
        Path dataDir = workDir.resolve("data");
        try (ServerSocket taken = new ServerSocket(0)) {
            Map<String, String> env = new HashMap<>(Map.of(
                    "SOP_HTTP_PORT", String.valueOf(StandaloneProcess.freePort()),
                    "SOP_KAFKA_PORT", String.valueOf(StandaloneProcess.freePort()),
                    "SOP_KAFKA_CONTROLLER_PORT", String.valueOf(StandaloneProcess.freePort())));
            env.put(variable, String.valueOf(taken.getLocalPort()));

            try (StandaloneProcess platform = new StandaloneProcess(dataDir, env)) {
                platform.start();
                OptionalInt exit = platform.awaitExit(Duration.ofSeconds(10));

                assertThat(exit).as("exited within 10 s").isPresent();
                assertThat(exit.getAsInt()).isNotZero();
                List<String> lines = platform.output().lines().filter(line -> !line.isBlank()).toList();
                assertThat(lines).as("the whole output")
                        .containsOnlyOnce("Port " + taken.getLocalPort() + " is in use: set " + variable + " to a free port")
                        .noneMatch(line -> line.contains("Exception") || line.startsWith("\tat "));
            }
        }
        assertThat(dataDir.resolve("bootstrap-token")).doesNotExist();
        assertThat(filesUnder(dataDir)).as("nothing written in the data directory").isEmpty();
    }

    private static List<Path> filesUnder(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).toList();
        }
    }
}
