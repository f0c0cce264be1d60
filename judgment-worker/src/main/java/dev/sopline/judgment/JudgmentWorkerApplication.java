package dev.sopline.judgment;

import dev.sopline.worker.SopWorker;
import java.nio.file.Path;
import java.util.function.Supplier;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * The judgment worker as its own service, with a health endpoint for orchestrators: DOWN while the worker does not
 * take steps ({@link JudgmentHealthIndicator}).
 */
@SpringBootApplication
public class JudgmentWorkerApplication {

    public static void main(String[] args) {
        // Its own config name, so it never shadows the gateway's application.properties when both are on a classpath.
        new SpringApplicationBuilder(JudgmentWorkerApplication.class).properties("spring.config.name=judgment-worker").run(args);
    }

    /**
     * With {@code SOP_DATA_DIR} set, the worker is a static member of its group under the id kept there, so a service
     * restarted after a crash on the same directory takes its judgment steps back at once; without it, a dynamic member,
     * whose restarted self waits out its dead self's session (45 s) before it gets a step.
     */
    @Bean
    RunningJudgmentWorker judgmentWorker(@Value("${KAFKA_BOOTSTRAP_SERVERS:localhost:29092}") String bootstrapServers,
                                         @Value("${SOP_JUDGMENT_CONCURRENCY:2}") int concurrency,
                                         @Value("${SOP_DATA_DIR:}") String dataDir, Environment environment) {
        // Settings through Spring's environment: the process's variables, or properties given to the application.
        return new RunningJudgmentWorker(() -> {
            JudgmentAgent agent = AgentProviders.from(environment::getProperty);
            return dataDir.isBlank()
                    ? JudgmentWorker.start(bootstrapServers, agent, concurrency)
                    : JudgmentWorker.start(bootstrapServers, agent, concurrency, Path.of(dataDir));
        });
    }

    @Bean
    JudgmentHealthIndicator judgmentHealthIndicator(RunningJudgmentWorker worker) {
        return new JudgmentHealthIndicator(worker::current);
    }

    /** Starts the worker with the application and stops it with it. */
    static final class RunningJudgmentWorker implements SmartLifecycle {

        private final Supplier<SopWorker> starter;
        private volatile SopWorker worker;

        RunningJudgmentWorker(Supplier<SopWorker> starter) {
            this.starter = starter;
        }

        @Override
        public void start() {
            worker = starter.get();
        }

        @Override
        public void stop() {
            SopWorker stopping = worker;
            worker = null;
            if (stopping != null) {
                stopping.close();
            }
        }

        /** Whether it was started and not stopped; whether it still takes steps is for health to say. */
        @Override
        public boolean isRunning() {
            return worker != null;
        }

        SopWorker current() {
            return worker;
        }
    }
}
