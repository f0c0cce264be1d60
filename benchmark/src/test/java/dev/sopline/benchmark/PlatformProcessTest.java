package dev.sopline.benchmark;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class PlatformProcessTest {

    @Test
    void stopsThePlatformThenDeletesItsDataDirectory() throws Exception {
        Path dataDir = Files.createTempDirectory("platform-process-test");
        Files.writeString(Files.createDirectories(dataDir.resolve("kafka/sop.events-0")).resolve("00000000000000000000.log"), "records");
        Process platform = new ProcessBuilder("sleep", "60").start();

        PlatformProcess.stop(platform, dataDir);

        assertThat(platform.isAlive()).isFalse();
        assertThat(dataDir).doesNotExist();
    }
}
