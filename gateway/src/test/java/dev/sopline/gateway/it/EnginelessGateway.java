package dev.sopline.gateway.it;

import dev.sopline.engine.api.topic.EngineTopics;
import dev.sopline.gateway.GatewayApplication;
import dev.sopline.testing.SharedKafka;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A gateway of its own on the shared test broker, without an engine in its JVM: one would join the shared test engine's
 * group and move its partitions under the other tests of this JVM. It reads engine state from a query URL nobody
 * serves, and the platform's topics are made first, as an engine would make them.
 */
final class EnginelessGateway {

    private EnginelessGateway() {}

    /** Started on a free port with {@code token} as its bootstrap token; {@code settings} are further arguments. */
    static ConfigurableApplicationContext start(Path dataDir, String token, String... settings) {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, SharedKafka.bootstrapServers()))) {
            EngineTopics.ensure(admin, 6, 6, (short) 1);
        }
        // Arguments, not default properties: application.properties would outrank those.
        String[] arguments = Stream.concat(Stream.of(
                "--server.port=0",
                "--sop.kafka.bootstrap-servers=" + SharedKafka.bootstrapServers(),
                "--sop.bootstrap-token=" + token,
                "--sop.data-dir=" + dataDir,
                "--sop.engine.query-urls=http://localhost:9"), Stream.of(settings)).toArray(String[]::new);
        return new SpringApplicationBuilder(GatewayApplication.class).run(arguments);
    }

    static int port(ConfigurableApplicationContext gateway) {
        return gateway.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
    }
}
