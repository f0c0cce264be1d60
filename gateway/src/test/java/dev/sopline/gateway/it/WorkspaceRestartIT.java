package dev.sopline.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.gateway.config.SopProperties;
import dev.sopline.gateway.workspace.WorkspaceRecord;
import dev.sopline.gateway.workspace.WorkspaceRegistry;
import dev.sopline.testing.SharedKafka;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Workspaces across a restart of the gateway: a new registry reads {@code sop.workspaces} again. */
class WorkspaceRestartIT {

    @Test
    void shouldKeepLiveAndDeletedWorkspacesWhenTheGatewayRestarts(@TempDir Path dataDir) throws Exception {
        SopProperties properties = new SopProperties(new SopProperties.Kafka(SharedKafka.bootstrapServers()), null,
                dataDir, null, null, new SopProperties.RateLimit(50, 100), Duration.ofSeconds(10), null, null);
        String live = "live-" + UUID.randomUUID().toString().substring(0, 8);
        String deleted = "gone-" + UUID.randomUUID().toString().substring(0, 8);
        WorkspaceRegistry first = new WorkspaceRegistry(properties);
        first.start();
        WorkspaceRecord kept = first.create(live, Instant.now()).orElseThrow();
        first.save(first.create(deleted, Instant.now()).orElseThrow().deleted(Instant.now()));
        first.stop();

        WorkspaceRegistry restarted = new WorkspaceRegistry(properties);
        restarted.start();
        try {
            assertThat(restarted.live()).contains(kept).extracting(WorkspaceRecord::name).contains("default").doesNotContain(deleted);
            assertThat(restarted.isDeleted(deleted)).isTrue();
            assertThat(restarted.create(deleted, Instant.now())).as("a deleted name stays taken").isEmpty();
        } finally {
            restarted.stop();
        }
    }
}
