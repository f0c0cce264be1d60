package dev.sopline.gateway.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpServer;
import dev.sopline.gateway.auth.SignatureVerifier;
import dev.sopline.gateway.webhook.DeliveryAttempt.Outcome;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class WebhookSenderTest {

    private static final String SECRET = "a-receiver-secret-of-some-length";
    private static final byte[] BODY = "{\"id\":\"01J\",\"type\":\"sop.instance.state_changed\"}".getBytes(StandardCharsets.UTF_8);

    private HttpServer receiver;
    private final List<Headers> requests = new CopyOnWriteArrayList<>();
    private final AtomicInteger status = new AtomicInteger(204);

    @BeforeEach
    void startReceiver() throws IOException {
        receiver = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        receiver.createContext("/moved", exchange -> {
            exchange.getRequestBody().readAllBytes();
            exchange.getResponseHeaders().add("Location", "/hook");
            exchange.sendResponseHeaders(307, -1);
            exchange.close();
        });
        receiver.createContext("/hook", exchange -> {
            exchange.getRequestBody().readAllBytes();
            requests.add(exchange.getRequestHeaders());
            exchange.sendResponseHeaders(status.get(), -1);
            exchange.close();
        });
        receiver.start();
    }

    @AfterEach
    void stopReceiver() {
        receiver.stop(0);
    }

    @Test
    void shouldPostTheSignedEventUnderItsDeliveryId() {
        Outcome outcome = new WebhookSender(allowingPrivate()).make(subscription(), new Delivery("01J:whk_1", BODY, () -> {}), 1);

        assertThat(outcome).isEqualTo(Outcome.DELIVERED);
        assertThat(requests).singleElement().satisfies(headers -> {
            assertThat(headers.getFirst("X-SOP-Delivery")).isEqualTo("01J:whk_1");
            assertThat(headers.getFirst("X-SOP-Signature-256")).isEqualTo(SignatureVerifier.sign(SECRET, BODY));
        });
    }

    @Test
    void shouldReportAnAnswerOtherThan2xxAsFailed() {
        status.set(503);

        Outcome outcome = new WebhookSender(allowingPrivate()).make(subscription(), new Delivery("01J:whk_1", BODY, () -> {}), 1);

        assertThat(outcome).isEqualTo(Outcome.FAILED);
    }

    @Test
    void shouldNotFollowARedirectToAnotherAddress() {
        WebhookSubscription moved = new WebhookSubscription("whk_1", "default",
                "http://" + InetAddress.getLoopbackAddress().getHostAddress() + ":" + receiver.getAddress().getPort() + "/moved",
                List.of("state_changed"), SECRET, Instant.now());

        Outcome outcome = new WebhookSender(allowingPrivate()).make(moved, new Delivery("01J:whk_1", BODY, () -> {}), 1);

        assertThat(outcome).isEqualTo(Outcome.FAILED);
        assertThat(requests).as("the redirect's target, which no check has seen, is never called").isEmpty();
    }

    @Test
    void shouldNotSendToADestinationThatIsNoLongerAllowed() {
        WebhookDestinationPolicy publicOnly = new WebhookDestinationPolicy(false, InetAddress::getAllByName);

        Outcome outcome = new WebhookSender(publicOnly).make(subscription(), new Delivery("01J:whk_1", BODY, () -> {}), 1);

        assertThat(outcome).isEqualTo(Outcome.REFUSED);
        assertThat(requests).isEmpty();
    }

    @Test
    void shouldRetryAHostThatDoesNotResolve() {
        WebhookDestinationPolicy noDns = new WebhookDestinationPolicy(false, host -> {
            throw new UnknownHostException(host);
        });

        Outcome outcome = new WebhookSender(noDns).make(subscription(), new Delivery("01J:whk_1", BODY, () -> {}), 1);

        assertThat(outcome).isEqualTo(Outcome.FAILED);
    }

    private static WebhookDestinationPolicy allowingPrivate() {
        return new WebhookDestinationPolicy(true, InetAddress::getAllByName);
    }

    private WebhookSubscription subscription() {
        String url = "http://localhost:" + receiver.getAddress().getPort() + "/hook";
        return new WebhookSubscription("whk_1", "default", url, List.of("state_changed"), SECRET, Instant.EPOCH);
    }
}
