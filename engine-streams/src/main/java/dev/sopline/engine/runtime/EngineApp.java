package dev.sopline.engine.runtime;

import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An engine replica on its own, as the distributed deployment runs it: the topology, plus the query endpoints at
 * {@code SOP_ENGINE_ADVERTISED_ENDPOINT} that the other replicas and the gateways use. Stops cleanly on SIGTERM.
 */
public final class EngineApp {

    private static final Logger LOG = LoggerFactory.getLogger(EngineApp.class);

    private EngineApp() {}

    public static void main(String[] args) throws InterruptedException {
        EngineSettings settings = EngineSettings.fromEnvironment(System.getenv());
        Engine engine = Engine.start(settings);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            LOG.info("Stopping the engine");
            engine.close();
            stopped.countDown();
        }, "engine-shutdown"));
        stopped.await();
    }
}
