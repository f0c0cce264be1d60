package dev.sopline.example;

import dev.sopline.worker.SopWorker;
import dev.sopline.worker.StepFailure;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * Resolves the automated steps of the example processes: {@code billing.pay} (expense approval),
 * {@code accounts.create} (customer onboarding) and {@code reports.build} (daily report).
 *
 * <p>Kafka mode by default, on {@code KAFKA_BOOTSTRAP_SERVERS} (the standalone platform's embedded broker unless set).
 * HTTP mode when {@code SOP_GATEWAY_URL} and {@code SOP_TOKEN} are both set: it polls the gateway with that token,
 * which needs the {@code worker} role or a wider one.
 *
 * <p>Where Kafka is shared, the {@code SOP_KAFKA_SECURITY_*} and {@code SOP_KAFKA_SASL_*} variables give its credentials
 * (see {@code KafkaClientSecurity}), and {@code SOP_WORKER_READ_PREVIOUS_TOPIC=false} keeps it off
 * {@code sop.steps.automated}, which credentials for its teams' topics do not reach.
 */
public final class ExampleWorker {

    private static final String HANDLED = "billing.pay, accounts.create, reports.build";

    private ExampleWorker() {}

    /** Kafka mode. */
    public static SopWorker start(String bootstrapServers) {
        return start(bootstrapServers, true);
    }

    /** Kafka mode; {@code readPreviousTopic} false where the worker's credentials grant its teams' topics only. */
    public static SopWorker start(String bootstrapServers, boolean readPreviousTopic) {
        return withHandlers(SopWorker.builder().kafka(bootstrapServers).group("example-workers").readPreviousTopic(readPreviousTopic)).start();
    }

    /** HTTP mode: polls the gateway at {@code gatewayUrl} with a token of role {@code worker}. */
    public static SopWorker startHttp(String gatewayUrl, String token) {
        return withHandlers(SopWorker.builder().http(gatewayUrl, token)).start();
    }

    private static SopWorker.Builder withHandlers(SopWorker.Builder builder) {
        return builder
                .handle("billing.pay", step -> {
                    double amount = ((Number) step.input("amount")).doubleValue();
                    if (amount > 10_000) {
                        throw new StepFailure("over_limit", "Payments over 10,000 need a second approver");
                    }
                    return Map.of("receipt", "r-" + step.instanceId().substring(20).toLowerCase());
                })
                .handle("accounts.create", step -> Map.of("account_id", "acct-" + Math.abs(step.input("email").hashCode())))
                .handle("reports.build", step -> Map.of("report_url", "https://reports.example.com/" + step.input("region") + "/" + step.instanceId()));
    }

    public static void main(String[] args) throws InterruptedException {
        String gatewayUrl = setting("SOP_GATEWAY_URL");
        String token = setting("SOP_TOKEN");
        if ((gatewayUrl == null) != (token == null)) {
            // Half an HTTP setup is a mistake; falling back to Kafka would hide it.
            System.err.println("Set both SOP_GATEWAY_URL and SOP_TOKEN for HTTP mode, or neither for Kafka mode");
            System.exit(2);
        }
        SopWorker worker;
        if (gatewayUrl != null) {
            worker = startHttp(gatewayUrl, token);
            System.out.println("Example worker in HTTP mode, polling the gateway at " + gatewayUrl + "; handling " + HANDLED);
        } else {
            String bootstrap = System.getenv().getOrDefault("KAFKA_BOOTSTRAP_SERVERS", "localhost:29092");
            worker = start(bootstrap, !"false".equalsIgnoreCase(setting("SOP_WORKER_READ_PREVIOUS_TOPIC")));
            if (worker.awaitConnected(Duration.ofSeconds(10))) {
                System.out.println("Example worker in Kafka mode, connected to " + bootstrap + "; handling " + HANDLED);
            } else {
                // Still trying in the background; the log says why at each attempt.
                System.out.println("Example worker in Kafka mode: the broker at " + bootstrap + " does not answer yet; still trying "
                        + "(set KAFKA_BOOTSTRAP_SERVERS if it is elsewhere). Handling " + HANDLED);
            }
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            worker.close();
            stopped.countDown();
        }));
        stopped.await();
    }

    private static String setting(String name) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? null : value.trim();
    }
}
