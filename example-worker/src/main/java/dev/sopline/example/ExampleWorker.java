package dev.sopline.example;

import dev.sopline.worker.SopWorker;
import dev.sopline.worker.StepFailure;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * Resolves the automated steps of the example processes: {@code billing.pay} (expense approval),
 * {@code accounts.create} (customer onboarding) and {@code reports.build} (daily report). Reads
 * {@code KAFKA_BOOTSTRAP_SERVERS}, by default the standalone platform's embedded broker.
 */
public final class ExampleWorker {

    private ExampleWorker() {}

    public static SopWorker start(String bootstrapServers) {
        return SopWorker.builder()
                .kafka(bootstrapServers)
                .group("example-workers")
                .handle("billing.pay", step -> {
                    double amount = ((Number) step.input("amount")).doubleValue();
                    if (amount > 10_000) {
                        throw new StepFailure("over_limit", "Payments over 10,000 need a second approver");
                    }
                    return Map.of("receipt", "r-" + step.instanceId().substring(20).toLowerCase());
                })
                .handle("accounts.create", step -> Map.of("account_id", "acct-" + Math.abs(step.input("email").hashCode())))
                .handle("reports.build", step -> Map.of("report_url", "https://reports.example.com/" + step.input("region") + "/" + step.instanceId()))
                .start();
    }

    public static void main(String[] args) throws InterruptedException {
        String bootstrap = System.getenv().getOrDefault("KAFKA_BOOTSTRAP_SERVERS", "localhost:29092");
        SopWorker worker = start(bootstrap);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            worker.close();
            stopped.countDown();
        }));
        System.out.println("Example worker connected to " + bootstrap + "; handling billing.pay, accounts.create, reports.build");
        stopped.await();
    }
}
