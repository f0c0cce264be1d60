package dev.sopline.gateway.webhook;

import dev.sopline.gateway.auth.SignatureVerifier;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * One attempt of one delivery: the destination check, then a signed POST of the CloudEvent that ends within
 * {@link #ATTEMPT_TIMEOUT}, so a receiver that hangs frees its sender.
 *
 * <p>The destination is checked again at every attempt, after resolving the host, because its addresses may have
 * changed since registration. The JDK client then resolves the host once more to connect; it cannot be handed the
 * checked address (Java 17 has no resolver hook, {@code Host} is a restricted header, and connecting to an IP would
 * break TLS name checks). Both lookups go through the JVM's address cache ({@code networkaddress.cache.ttl}, 30 s
 * by default, whatever TTL the DNS answer carries), so they agree unless the cached entry expires in the
 * milliseconds between them: that window is the accepted remainder of DNS rebinding. Redirects are not followed, so
 * a receiver cannot send the request on to an unchecked address.
 */
@Component
public class WebhookSender implements DeliveryAttempt {

    static final Duration ATTEMPT_TIMEOUT = Duration.ofSeconds(10);
    private static final Logger LOG = LoggerFactory.getLogger(WebhookSender.class);

    private final WebhookDestinationPolicy policy;
    private final HttpClient http = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5))
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();

    public WebhookSender(WebhookDestinationPolicy policy) {
        this.policy = policy;
    }

    @Override
    public Outcome make(WebhookSubscription subscription, Delivery delivery, int attempt) {
        URI url = URI.create(subscription.url());
        try {
            policy.check(url);
        } catch (ForbiddenDestinationException e) {
            LOG.warn("Not delivering {} to webhook {}: {}", delivery.id(), subscription.id(), e.getMessage());
            return Outcome.REFUSED;
        } catch (UnknownHostException e) {
            LOG.debug("Delivery {} to webhook {}: host '{}' does not resolve (attempt {})", delivery.id(), subscription.id(), url.getHost(), attempt);
            return Outcome.FAILED;
        }
        HttpRequest request = HttpRequest.newBuilder(url)
                .timeout(ATTEMPT_TIMEOUT)
                .header("Content-Type", "application/cloudevents+json")
                .header("X-SOP-Signature-256", SignatureVerifier.sign(subscription.secret(), delivery.body()))
                .header("X-SOP-Delivery", delivery.id())
                .POST(HttpRequest.BodyPublishers.ofByteArray(delivery.body()))
                .build();
        // The request timeout ends the wait for the answer's headers; this one also bounds a body that never ends.
        CompletableFuture<HttpResponse<Void>> response = http.sendAsync(request, HttpResponse.BodyHandlers.discarding());
        try {
            int status = response.get(ATTEMPT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).statusCode();
            if (status >= 200 && status < 300) {
                return Outcome.DELIVERED;
            }
            LOG.debug("Delivery {} to webhook {} answered {} (attempt {})", delivery.id(), subscription.id(), status, attempt);
        } catch (ExecutionException | TimeoutException e) {
            response.cancel(true);
            LOG.debug("Delivery {} to webhook {} failed: {} (attempt {})", delivery.id(), subscription.id(), e, attempt);
        } catch (InterruptedException e) {
            response.cancel(true);
            Thread.currentThread().interrupt();
        }
        return Outcome.FAILED;
    }
}
