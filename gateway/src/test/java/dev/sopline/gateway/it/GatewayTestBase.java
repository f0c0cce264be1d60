package dev.sopline.gateway.it;

import dev.sopline.testing.SopApi;

import dev.sopline.gateway.auth.TriggerSecrets;
import dev.sopline.testing.SharedKafka;
import dev.sopline.testing.TemporaryDirectories;
import java.util.Map;
import java.util.Optional;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** The gateway with its engine on the shared embedded broker, over real HTTP on a random port; one context for all. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, classes = {
        dev.sopline.gateway.GatewayApplication.class, GatewayTestBase.Secrets.class, HeardDecisions.class})
abstract class GatewayTestBase {

    static final String TOKEN = "it-bootstrap-token";
    static final String TRIGGER_SECRET = "s3cret-for-tests";

    @LocalServerPort
    int port;

    @org.springframework.beans.factory.annotation.Autowired
    dev.sopline.gateway.auth.TokenRegistry tokens;

    @DynamicPropertySource
    static void kafka(DynamicPropertyRegistry registry) {
        registry.add("sop.kafka.bootstrap-servers", SharedKafka::bootstrapServers);
        registry.add("sop.bootstrap-token", () -> TOKEN);
        registry.add("sop.rate-limit.per-second", () -> "1000");
        registry.add("sop.rate-limit.burst", () -> "2000");
        // Short, so the read-timeout tests wait seconds, not the default 10.
        registry.add("sop.request-read-timeout", () -> "2s");
        // Low, so the limit is reached in a few registrations (WorkspaceBoundsIT); the default is 100.
        registry.add("sop.max-scheduled-processes", () -> "10");
        // Clients behind a proxy are told apart by the address it forwards (TokenRolesIT); other tests send no such header.
        registry.add("sop.trusted-proxies", () -> "127.0.0.1,::1");
        // Test receivers listen on loopback; the destination policy itself is tested with this off.
        registry.add("sop.webhook.allow-private", () -> "true");
        // Deleted as the JVM exits, once the cached context shared by every test class is closed.
        registry.add("sop.data-dir", () -> TemporaryDirectories.deletedAtExit("gateway-it").toString());
    }

    /** The engine answers 503 while it starts and rebalances: each test begins once it serves. */
    @org.junit.jupiter.api.BeforeEach
    void awaitEngineServing() {
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(60)).until(() -> api().get("/sop/").status() == 200);
    }

    SopApi api() {
        return new SopApi("http://localhost:" + port, TOKEN);
    }

    @TestConfiguration
    static class Secrets {
        @Bean
        @Primary
        TriggerSecrets testSecrets() {
            Map<String, String> values = Map.of("ONBOARDING_SECRET", TRIGGER_SECRET, "GITHUB_STYLE_SECRET", TRIGGER_SECRET);
            return variable -> Optional.ofNullable(values.get(variable));
        }
    }
}
