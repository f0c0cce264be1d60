package dev.sopline.standalone;

import dev.sopline.gateway.GatewayApplication;
import dev.sopline.judgment.AgentProviders;
import dev.sopline.judgment.JudgmentWorker;
import dev.sopline.worker.SopWorker;
import java.nio.file.Path;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Starts the whole platform in one JVM: an embedded broker (unless {@code KAFKA_BOOTSTRAP_SERVERS} names a cluster),
 * the gateway with its engine, and the judgment worker ({@code SOP_LLM_PROVIDER}, offline {@code local} by default;
 * {@code SOP_JUDGMENT_WORKER=false} leaves it out). One shutdown hook stops them in reverse order, so the engine
 * commits and leaves before the broker goes.
 */
public final class StandaloneLauncher {

    private static final Logger LOG = LoggerFactory.getLogger(StandaloneLauncher.class);

    private StandaloneLauncher() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> env = System.getenv();
        Path dataDir = Path.of(env.getOrDefault("SOP_DATA_DIR", "./data")).toAbsolutePath().normalize();
        String bootstrap = env.get("KAFKA_BOOTSTRAP_SERVERS");
        EmbeddedBroker broker = null;
        if (bootstrap == null || bootstrap.isBlank()) {
            int port = Integer.parseInt(env.getOrDefault("SOP_KAFKA_PORT", "29092"));
            int controllerPort = Integer.parseInt(env.getOrDefault("SOP_KAFKA_CONTROLLER_PORT", "29093"));
            broker = EmbeddedBroker.start(dataDir, port, controllerPort);
            bootstrap = broker.bootstrapServers();
            LOG.info("Embedded Kafka broker listening on {}, data in {}", bootstrap, dataDir.resolve("kafka"));
        }
        SpringApplication application = new SpringApplication(GatewayApplication.class);
        application.setRegisterShutdownHook(false);
        // System properties outrank application.properties, where these default to the environment variables.
        System.setProperty("sop.kafka.bootstrap-servers", bootstrap);
        System.setProperty("sop.data-dir", dataDir.toString());
        ConfigurableApplicationContext context = application.run(args);
        SopWorker judgment = "false".equals(env.get("SOP_JUDGMENT_WORKER"))
                ? null
                : JudgmentWorker.start(bootstrap, AgentProviders.fromEnvironment(env), 2);
        EmbeddedBroker started = broker;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            if (judgment != null) {
                judgment.close();
            }
            context.close();
            if (started != null) {
                started.close();
            }
        }, "sopline-shutdown"));
        String port = context.getEnvironment().getProperty("local.server.port", "8080");
        System.out.println();
        System.out.println("Sopline is running at http://localhost:" + port + "/sop/");
        System.out.println("Token: $SOP_BOOTSTRAP_TOKEN if you set it, otherwise the file " + dataDir.resolve("bootstrap-token"));
        System.out.println();
    }
}
