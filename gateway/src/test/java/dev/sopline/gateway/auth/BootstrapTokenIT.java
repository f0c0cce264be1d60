package dev.sopline.gateway.auth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.engine.api.topic.EngineTopics;
import dev.sopline.gateway.config.SopProperties;
import dev.sopline.testing.SharedKafka;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The bootstrap token across restarts of the gateway: kept while valid, never brought back once revoked. */
class BootstrapTokenIT {

    @TempDir
    Path dataDir;

    @BeforeAll
    static void tokensTopic() throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, SharedKafka.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(EngineTopics.TOKENS, 1, (short) 1)
                    .configs(Map.of("cleanup.policy", "compact")))).all().get();
        } catch (java.util.concurrent.ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw e;
            }
        }
    }

    @Test
    void shouldKeepTheBootstrapTokenRevokedWhenTheGatewayRestartsWithTheSameValue() throws Exception {
        String secret = "bootstrap-" + UUID.randomUUID();
        SopProperties properties = properties(secret);

        TokenRegistry first = startGateway(properties);
        TokenRecord bootstrap = first.authenticate(secret, Instant.now()).orElseThrow();
        assertThat(bootstrap.effectiveRole()).isEqualTo(Role.ADMIN);
        first.save(bootstrap.revoked(Instant.now()));
        first.stop();

        TokenRegistry restarted = startGateway(properties);
        try {
            assertThat(restarted.authenticate(secret, Instant.now())).isEmpty();
        } finally {
            restarted.stop();
        }
    }

    @Test
    void shouldFindTheSameBootstrapTokenAfterARestart() throws Exception {
        String secret = "bootstrap-" + UUID.randomUUID();
        SopProperties properties = properties(secret);
        TokenRegistry first = startGateway(properties);
        String id = first.authenticate(secret, Instant.now()).orElseThrow().id();
        first.stop();

        TokenRegistry restarted = startGateway(properties);
        try {
            assertThat(restarted.authenticate(secret, Instant.now())).get().extracting(TokenRecord::id).isEqualTo(id);
        } finally {
            restarted.stop();
        }
    }

    /** What a gateway does with tokens as it starts: read the table, then make sure of the bootstrap token. */
    private static TokenRegistry startGateway(SopProperties properties) {
        TokenRegistry tokens = new TokenRegistry(properties);
        tokens.start();
        new BootstrapToken(properties, tokens).start();
        return tokens;
    }

    private SopProperties properties(String bootstrapToken) {
        return new SopProperties(new SopProperties.Kafka(SharedKafka.bootstrapServers()), null, dataDir, bootstrapToken, null,
                new SopProperties.RateLimit(50, 100), Duration.ofSeconds(10), null, null);
    }
}
