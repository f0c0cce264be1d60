package dev.sopline.engine.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replica restarted on its state directory rejoins its groups (the engine's and its result relay's) as the same static
 * member; another replica is another.
 */
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

    @Test
    void shouldKeepTheResultRelaysMemberIdAcrossRestartsApartFromTheEngines() throws Exception {
        Path stateDir = Files.createDirectories(dataDirs.resolve("engine-1"));

        String relayId = relayMemberId(stateDir);

        assertThat(relayMemberId(stateDir)).as("the same relay, restarted").isEqualTo(relayId);
        assertThat(relayId).as("another group's member, of the same replica").isNotEqualTo(memberId(stateDir));
        assertThat(relayMemberId(dataDirs.resolve("engine-2"))).as("another replica's relay").isNotEqualTo(relayId);
    }

    private static String relayMemberId(Path stateDir) {
        return (String) ResultRelay.properties(EngineSettings.fromEnvironment(Map.of()).withStateDir(stateDir))
                .get(StreamsConfig.consumerPrefix(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG));
    }

    private static String memberId(Path stateDir) {
        return (String) EngineSettings.fromEnvironment(Map.of()).withStateDir(stateDir).streamsProperties()
                .get(StreamsConfig.consumerPrefix(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG));
    }
}
