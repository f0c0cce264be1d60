package dev.sopline.benchmark;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

/**
 * {@code POST /sop/:name/start} under a bounded number of concurrent requests, as API clients send them; and
 * {@code GET /sop/:name/:id} of one waiting instance from as many clients, each calling on its own thread, for what the
 * HTTP path costs when nothing else runs.
 */
final class GatewayRun {

    /** The process the case starts, in the version given: a form step, so its instances wait and cost nothing more. */
    static String process(String version) {
        return """
            engine: "0.1"
            process:
              name: bench-form
              version: "%s"
              inputs:
                - name: n
                  type: integer
                  required: true
              steps:
                - id: review
                  type: form
                  outputs:
                    - name: ok
                      type: boolean
            """.formatted(version);
    }

    /**
     * The versions registered, oldest first: "1.0" alone by default, or as many as asked ("1.0" to "N.0"), since every
     * start names the latest and what that costs may grow with the versions a process keeps.
     */
    static List<String> versions(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("Expected --process-versions to be at least 1, but got " + count);
        }
        return IntStream.rangeClosed(1, count).mapToObj(major -> major + ".0").toList();
    }

    record Result(double requestsPerSecond, Latencies latencies, int requests, int non2xx) {}

    static Result run(String baseUrl, String token, int requests, int concurrency) throws Exception {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        Semaphore slots = new Semaphore(concurrency);
        Latencies latencies = new Latencies();
        AtomicInteger non2xx = new AtomicInteger();
        CompletableFuture<?>[] all = new CompletableFuture<?>[requests];
        long started = System.nanoTime();
        for (int i = 0; i < requests; i++) {
            slots.acquire();
            HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl + "/sop/bench-form/start"))
                    .header("X-SOP-Token", token)
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"inputs\": {\"n\": " + i + "}}"))
                    .build();
            long sent = System.nanoTime();
            all[i] = http.sendAsync(request, HttpResponse.BodyHandlers.discarding()).whenComplete((response, error) -> {
                latencies.record(System.nanoTime() - sent);
                if (error != null || response.statusCode() / 100 != 2) {
                    non2xx.incrementAndGet();
                }
                slots.release();
            });
        }
        CompletableFuture.allOf(all).exceptionally(ignored -> null).join();
        double seconds = (System.nanoTime() - started) / 1e9;
        return new Result(requests / seconds, latencies, requests, non2xx.get());
    }

    record Reads(double requestsPerSecond, Latencies latencies, long requests, long non2xx) {}

    /** {@code clients} threads reading {@code url} for {@code duration}, each one request after the other. */
    static Reads reads(BlockingHttp http, String url, String token, int clients, Duration duration) throws InterruptedException {
        Latencies latencies = new Latencies();
        AtomicInteger requests = new AtomicInteger();
        AtomicInteger non2xx = new AtomicInteger();
        long started = System.nanoTime();
        long end = started + duration.toNanos();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < clients; i++) {
            Thread thread = new Thread(() -> {
                while (System.nanoTime() < end) {
                    long sent = System.nanoTime();
                    try {
                        BlockingHttp.Answer answer = http.send("GET", url, token, null, Duration.ofSeconds(30));
                        if (answer.status() / 100 != 2) {
                            non2xx.incrementAndGet();
                        }
                    } catch (Exception e) {
                        non2xx.incrementAndGet();
                    }
                    latencies.record(System.nanoTime() - sent);
                    requests.incrementAndGet();
                }
            }, "gateway-reads-" + i);
            thread.start();
            threads.add(thread);
        }
        for (Thread thread : threads) {
            thread.join();
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        return new Reads(requests.get() / seconds, latencies, requests.get(), non2xx.get());
    }
}
