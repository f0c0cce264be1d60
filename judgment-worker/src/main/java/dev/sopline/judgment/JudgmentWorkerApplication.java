package dev.sopline.judgment;

import dev.sopline.worker.SopWorker;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;

/** The judgment worker as its own service, with a health endpoint for orchestrators. */
@SpringBootApplication
public class JudgmentWorkerApplication {

    public static void main(String[] args) {
        // Its own config name, so it never shadows the gateway's application.properties when both are on a classpath.
        new SpringApplicationBuilder(JudgmentWorkerApplication.class).properties("spring.config.name=judgment-worker").run(args);
    }

    @Bean
    SmartLifecycle judgmentWorker(@Value("${KAFKA_BOOTSTRAP_SERVERS:localhost:29092}") String bootstrapServers,
                                  @Value("${SOP_JUDGMENT_CONCURRENCY:2}") int concurrency) {
        return new SmartLifecycle() {
            private volatile SopWorker worker;

            @Override
            public void start() {
                worker = JudgmentWorker.start(bootstrapServers, AgentProviders.fromEnvironment(System.getenv()), concurrency);
            }

            @Override
            public void stop() {
                if (worker != null) {
                    worker.close();
                    worker = null;
                }
            }

            @Override
            public boolean isRunning() {
                return worker != null;
            }
        };
    }
}
