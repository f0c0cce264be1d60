package dev.sopline.engine.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A replica restarted on its state directory rejoins its group as the same static member; another replica is another. */
class StableMemberIdTest {

    @TempDir
    Path dataDirs;

    @Test
    void shouldKeepOneMemberIdPerStateDirectoryAcrossRestarts() throws Exception {
        Path first = Files.createDirectories(dataDirs.resolve("engine-1"));
        Path second = dataDirs.resolve("engine-2");

        String firstId = memberId(first);

        assertThat(memberId(first)).as("the same replica, restarted").isEqualTo(firstId);
        assertThat(memberId(second)).as("another replica").isNotEqualTo(firstId).isNotBlank();
    }

    private static String memberId(Path stateDir) {
        return (String) EngineSettings.fromEnvironment(Map.of()).withStateDir(stateDir).streamsProperties()
                .get(StreamsConfig.consumerPrefix(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG));
    }
}
