package dev.sopline.benchmark;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
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

    @Test
    void readsTheJitCompilersOfAJvmByItsProcessId() {
        Assumptions.assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "threads are read from /proc");

        // This JVM compiles with C1 and C2 unless told otherwise: their threads are found by name.
        assertThat(PlatformProcess.jvmThreadsCpu(ProcessHandle.current().pid()))
                .hasEntrySatisfying(PlatformProcess.JIT, used -> assertThat(used.toNanos()).isNotNegative());
    }
}
