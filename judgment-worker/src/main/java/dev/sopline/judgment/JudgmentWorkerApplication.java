package dev.sopline.judgment;

import dev.sopline.worker.SopWorker;
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

    @Bean
    RunningJudgmentWorker judgmentWorker(@Value("${KAFKA_BOOTSTRAP_SERVERS:localhost:29092}") String bootstrapServers,
                                         @Value("${SOP_JUDGMENT_CONCURRENCY:2}") int concurrency, Environment environment) {
        // Settings through Spring's environment: the process's variables, or properties given to the application.
        return new RunningJudgmentWorker(() -> JudgmentWorker.start(bootstrapServers, AgentProviders.from(environment::getProperty), concurrency));
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
