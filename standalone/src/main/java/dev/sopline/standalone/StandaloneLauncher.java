package dev.sopline.standalone;

import dev.sopline.gateway.GatewayApplication;
import dev.sopline.judgment.AgentProviders;
import dev.sopline.judgment.JudgmentAgent;
import dev.sopline.judgment.JudgmentHealthIndicator;
import dev.sopline.judgment.JudgmentWorker;
import dev.sopline.worker.SopWorker;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.bridge.SLF4JBridgeHandler;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.health.registry.HealthContributorRegistry;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Starts the whole platform in one JVM: an embedded broker (unless {@code KAFKA_BOOTSTRAP_SERVERS} names a cluster),
 * the gateway with its engine, and the judgment worker ({@code SOP_LLM_PROVIDER}, offline {@code local} by default;
 * {@code SOP_JUDGMENT_WORKER=false} leaves it out).
 *
 * <p>It fails fast: a port that is taken stops it before anything is started or written, with one line naming the
 * setting to change, and any failure later in the start stops what was started and exits non-zero, rather than leaving
 * a JVM that the broker's threads keep alive but that serves nothing.
 */
public final class StandaloneLauncher {

    private static final Logger LOG = LoggerFactory.getLogger(StandaloneLauncher.class);
    private static final long MIB = 1024 * 1024;

    /**
     * Lowest-precedence defaults for the gateway in this process. A stop waits at most this long for open requests:
     * an open event stream or inbox tab never ends by itself, and a stop must not wait the default 30 s for it. The API
     * docs are on on purpose, so springdoc need not warn that they are on by default.
     */
    private static final Map<String, Object> DEFAULTS = Map.of(
            "spring.lifecycle.timeout-per-shutdown-phase", "2s",
            "springdoc.api-docs.enabled", "true");

    private StandaloneLauncher() {}

    public static void main(String[] args) {
        long started = System.nanoTime();
        boolean training = TrainingRun.requested();
        StandaloneSettings settings;
        try {
            settings = StandaloneSettings.from(training ? TrainingRun.environment(System.getenv()) : System.getenv());
        } catch (IllegalArgumentException | IOException badSetting) {
            System.err.println(badSetting.getMessage());
            System.exit(2);
            return;
        }
        List<String> portProblems = PortCheck.problems(settings.ports());
        if (!portProblems.isEmpty()) {
            portProblems.forEach(System.err::println);
            System.exit(2);
        }
        ShutdownSequence running = new ShutdownSequence();
        Runtime.getRuntime().addShutdownHook(new Thread(running::close, "sopline-shutdown"));
        int httpPort;
        try {
            httpPort = start(settings, args, running);
        } catch (Throwable failure) {
            LOG.error("Sopline could not start, stopping: {}", failure.toString(), failure);
            running.close();
            System.exit(1);
            return;
        }
        LOG.info("Sopline started in {} ms, max heap {} MiB", (System.nanoTime() - started) / 1_000_000,
                Runtime.getRuntime().maxMemory() / MIB);
        printBanner(settings, httpPort);
        if (training) {
            stopOnceHealthy(httpPort);
        }
    }

    /** Ends a training start: the stop runs through the shutdown hook, as when a user stops the platform. */
    private static void stopOnceHealthy(int httpPort) {
        try {
            TrainingRun.awaitHealthy(httpPort);
            LOG.info("Training start healthy, stopping");
            System.exit(0);
        } catch (Exception failure) {
            LOG.error("Training start failed, stopping: {}", failure.toString(), failure);
            System.exit(1);
        }
    }

    /** Starts every part, each added to {@code running} once started, and answers the port the gateway listens on. */
    private static int start(StandaloneSettings settings, String[] args, ShutdownSequence running) throws Exception {
        // The offline model takes seconds to load: it loads while the broker and the gateway start.
        CompletableFuture<JudgmentAgent> agent = settings.judgmentWorker()
                ? CompletableFuture.supplyAsync(() -> AgentProviders.fromEnvironment(System.getenv()))
                : null;
        String bootstrap = settings.externalBootstrap();
        CompletableFuture<EmbeddedBroker> broker = null;
        if (settings.embeddedBroker()) {
            // The broker starts while Spring builds the gateway; only the parts that talk to Kafka wait for it.
            broker = EmbeddedBroker.startAsync(settings.dataDir(), settings.kafkaPort(), settings.controllerPort());
            running.add("embedded broker", EmbeddedBroker.closerOf(broker));
            bootstrap = EmbeddedBroker.bootstrapServers(settings.kafkaPort());
        }
        // The broker logs from its own threads while Spring would reset and reload logback, and a message in that
        // window prints a logback warning of "no appenders". The jar's logback.xml is the whole configuration, so
        // Spring leaves logging as it is (-Dlogback.configurationFile=... replaces it).
        System.setProperty(LoggingSystem.SYSTEM_PROPERTY, LoggingSystem.NONE);
        // What Spring's logging system would have done: Tomcat logs through java.util.logging, routed to logback.
        SLF4JBridgeHandler.removeHandlersForRootLogger();
        SLF4JBridgeHandler.install();
        SpringApplication application = new SpringApplication(GatewayApplication.class);
        application.setRegisterShutdownHook(false);
        application.setDefaultProperties(DEFAULTS);
        if (broker != null) {
            application.addInitializers(new BrokerReadiness(broker, settings.dataDir().resolve("kafka")));
        }
        // System properties outrank application.properties, where these default to the environment variables.
        System.setProperty("sop.kafka.bootstrap-servers", bootstrap);
        System.setProperty("sop.data-dir", settings.dataDir().toString());
        // The gateway's server.port defaults to SOP_HTTP_PORT: the port checked above, or the training start's own.
        System.setProperty(StandaloneSettings.HTTP_PORT, String.valueOf(settings.httpPort()));
        ConfigurableApplicationContext context = application.run(args);
        running.add("gateway and engine", context);
        if (agent != null) {
            // The worker talks to Kafka only: it stops together with the gateway, so that their waits on groups that
            // are still rebalancing right after a restart do not add up.
            // A static member under an id kept in the data directory: after a kill -9 the restarted worker takes the judgment
            // steps back at once, instead of leaving them until its dead self's session ends (45 s).
            SopWorker judgment = JudgmentWorker.start(bootstrap, loaded(agent), 2, settings.dataDir());
            running.addAlongside("judgment worker", judgment);
            // Health is DOWN while the judgment worker takes no steps (its thread ended on a Kafka error or a fence),
            // as it is while the engine cannot decide: judgments would wait for a restart nobody is told to make.
            context.getBean(HealthContributorRegistry.class).registerContributor("judgment", new JudgmentHealthIndicator(() -> judgment));
        }
        return context.getEnvironment().getProperty("local.server.port", Integer.class, settings.httpPort());
    }

    private static JudgmentAgent loaded(CompletableFuture<JudgmentAgent> agent) throws Exception {
        try {
            return agent.get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }

    private static void printBanner(StandaloneSettings settings, int httpPort) {
        String base = "http://localhost:" + httpPort;
        String token = settings.bootstrapTokenSet()
                ? "the value of SOP_BOOTSTRAP_TOKEN"
                : "in " + settings.dataDir().resolve("bootstrap-token");
        System.out.println();
        System.out.println("Sopline is running.");
        System.out.println("  Task inbox:  " + base + "/ui/");
        System.out.println("  API:         " + base + "/sop/  (send the token in the X-SOP-Token header)");
        System.out.println("  API docs:    " + base + "/openapi.json");
        System.out.println("  Admin token: " + token);
        System.out.println();
    }
}
