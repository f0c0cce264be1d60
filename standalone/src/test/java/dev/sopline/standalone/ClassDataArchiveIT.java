package dev.sopline.standalone;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The class-data archive that the build trains fits the README's start command. A JVM given an archive that does not
 * fit its jars starts all the same, only slower, and says so in one line of warning; told to use the archive or fail
 * ({@code -Xshare:on}), it fails instead, which is what this test looks for.
 */
class ClassDataArchiveIT {

    @Test
    void shouldMapTheArchiveThatTheBuildTrainedWhenStartedAsTheReadmeSays() throws Exception {
        List<String> command = new ArrayList<>(StandaloneProcess.readmeStartCommand());
        assertThat(command).as("the README's start command").anyMatch(word -> word.startsWith("-XX:SharedArchiveFile="));
        command.set(0, Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add(1, "-Xshare:on");
        // The same class path without running the platform: the JVM checks the archive against it as it starts.
        command.set(command.indexOf("-jar"), "-cp");
        command.add("-version");

        Process java = new ProcessBuilder(command).directory(StandaloneProcess.PROJECT_ROOT.toFile())
                .redirectErrorStream(true).start();
        String output = new String(java.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(java.waitFor(60, TimeUnit.SECONDS)).isTrue();

        assertThat(java.exitValue()).as("exit of %s, which printed:%n%s", command, output).isZero();
        assertThat(output).doesNotContain("[warning]");
    }
}
