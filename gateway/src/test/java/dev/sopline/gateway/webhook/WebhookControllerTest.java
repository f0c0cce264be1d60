package dev.sopline.gateway.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sopline.gateway.api.RequestScope;
import dev.sopline.gateway.config.SopProperties;
import dev.sopline.gateway.web.ApiException;
import dev.sopline.schemas.validation.Violation;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.mock.web.MockHttpServletRequest;

/**
 * Registration under the production policy. The HTTP tests run with private destinations allowed (their receivers
 * listen on loopback), so the refusal is checked here, on the controller itself: no Spring context, no broker.
 */
class WebhookControllerTest {

    private static final Map<String, String> DNS = Map.of(
            "hooks.internal.example", "10.20.30.40",
            "localhost", "127.0.0.1");

    private final SopProperties properties = new SopProperties(new SopProperties.Kafka("localhost:9"), null, null, null, null, null, null,
            null, new SopProperties.Webhook(false));
    private final WebhookController controller = new WebhookController(new WebhookRegistry(properties), new RequestScope(properties),
            new WebhookDestinationPolicy(false, WebhookControllerTest::resolve), new dev.sopline.gateway.workspace.WorkspaceLocks());

    @ParameterizedTest
    @ValueSource(strings = {"http://127.0.0.1:8080/hook", "http://localhost/hook", "https://[::1]/hook", "http://169.254.169.254/latest/meta-data",
            "https://10.0.0.8/hook", "https://[::ffff:192.168.0.1]/hook", "https://hooks.internal.example/hook"})
    void shouldRefuseUrlsWhoseHostIsNotPublic(String url) {
        assertThatThrownBy(() -> register(url)).isInstanceOfSatisfying(ApiException.class, refusal -> {
            assertThat(refusal.status()).isEqualTo(422);
            assertThat(refusal.code()).isEqualTo("invalid_webhook_url");
            assertThat(refusal.getMessage()).startsWith("Expected the webhook host ").contains("to have only public addresses");
            assertThat(refusal.details()).extracting(Violation::field).containsExactly("url");
        });
    }

    @Test
    void shouldNameTheAddressAHostNameResolvesTo() {
        assertThatThrownBy(() -> register("https://hooks.internal.example/hook"))
                .hasMessage("Expected the webhook host 'hooks.internal.example' to have only public addresses, but 10.20.30.40 is private");
    }

    @Test
    void shouldRefuseAHostThatDoesNotResolve() {
        assertThatThrownBy(() -> register("https://nowhere.example/hook")).isInstanceOfSatisfying(ApiException.class, refusal -> {
            assertThat(refusal.code()).isEqualTo("invalid_webhook_url");
            assertThat(refusal.getMessage()).contains("'nowhere.example'").contains("resolve");
        });
    }

    @Test
    void shouldRefuseAUrlThatIsNotHttp() {
        assertThatThrownBy(() -> register("ftp://example.com/hook")).isInstanceOfSatisfying(ApiException.class, refusal -> {
            assertThat(refusal.code()).isEqualTo("invalid_webhook_url");
            assertThat(refusal.details()).extracting(Violation::field).containsExactly("url");
        });
    }

    private void register(String url) {
        byte[] body = ("{\"url\": \"" + url + "\", \"events\": [\"state_changed\"]}").getBytes(StandardCharsets.UTF_8);
        controller.create(body, new MockHttpServletRequest("POST", "/workspace/webhooks"));
    }

    private static InetAddress[] resolve(String host) throws UnknownHostException {
        String address = DNS.get(host);
        if (address != null) {
            return new InetAddress[] {InetAddress.getByName(address)};
        }
        if (host.startsWith("[") || Character.isDigit(host.charAt(0))) {
            return InetAddress.getAllByName(host);
        }
        throw new UnknownHostException(host);
    }
}
