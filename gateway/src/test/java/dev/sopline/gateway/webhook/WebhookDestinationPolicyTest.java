package dev.sopline.gateway.webhook;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class WebhookDestinationPolicyTest {

    private static final Map<String, String[]> DNS = Map.of(
            "hooks.example.com", new String[] {"93.184.216.34", "2606:2800:220:1::1"},
            "sneaky.example.com", new String[] {"93.184.216.34", "10.1.2.3", "2606:2800:220:1::1"},
            "localhost", new String[] {"127.0.0.1", "::1"});

    private final WebhookDestinationPolicy policy = new WebhookDestinationPolicy(false, WebhookDestinationPolicyTest::resolve);

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "127.8.9.10", "[::1]", "10.0.0.1", "10.255.255.255", "172.16.0.1", "172.31.255.254",
            "192.168.1.1", "100.64.0.1", "100.127.255.254", "[fc00::1]", "[fd12:3456::1]", "169.254.169.254", "169.254.0.1",
            "[fe80::1]", "[febf::1]", "0.0.0.0", "[::]", "224.0.0.1", "239.255.255.250", "[ff02::1]",
            "[::ffff:127.0.0.1]", "[::ffff:10.0.0.1]", "[::ffff:169.254.169.254]", "[::ffff:0.0.0.0]", "localhost", "sneaky.example.com",
            "255.255.255.255", "240.0.0.1", "[64:ff9b::7f00:1]", "[64:ff9b::a9fe:a9fe]", "[2002:7f00:1::1]", "[2002:a00:1:5::9]",
            "[64:ff9b:1::5db8:d822]", "[2001:0:4136:e378:8000:63bf:3fff:fdd2]",
            "192.0.0.170", "198.18.0.1", "198.19.255.254", "[fec0::1]", "[100::1]", "[::ffff:0:7f00:1]", "[::ffff:0:a9fe:a9fe]"})
    void shouldRefuseHostsWithANonPublicAddress(String host) {
        assertThatThrownBy(() -> policy.check(URI.create("https://" + host + "/hook")))
                .isInstanceOf(ForbiddenDestinationException.class)
                .hasMessageStartingWith("Expected the webhook host '" + host + "' to have only public addresses, but ");
    }

    @ParameterizedTest
    @ValueSource(strings = {"93.184.216.34", "[2606:2800:220:1::1]", "hooks.example.com", "172.32.0.1", "172.15.255.255", "100.128.0.1",
            "192.169.0.1", "11.0.0.1", "[fe00::1]", "[2001:db8::ffff:127.0.0.1]", "223.255.255.254", "[64:ff9b::5db8:d822]",
            "[2002:5db8:d822::1]", "198.20.0.1", "192.0.1.1", "[::ffff:0:5db8:d822]"})
    void shouldAllowHostsWithOnlyPublicAddresses(String host) {
        assertThatCode(() -> policy.check(URI.create("https://" + host + "/hook"))).doesNotThrowAnyException();
    }

    @Test
    void shouldNameTheForbiddenAddressAndItsKind() {
        assertThatThrownBy(() -> policy.check(URI.create("https://sneaky.example.com/hook")))
                .hasMessage("Expected the webhook host 'sneaky.example.com' to have only public addresses, but 10.1.2.3 is private");
    }

    @Test
    void shouldNameTheIpv4AddressATranslationPrefixCarries() {
        assertThatThrownBy(() -> policy.check(URI.create("https://[64:ff9b::a9fe:a9fe]/hook")))
                .hasMessageEndingWith("but 64:ff9b:0:0:0:0:a9fe:a9fe, which carries 169.254.169.254, is link-local");
        assertThatThrownBy(() -> policy.check(URI.create("https://[2002:a00:1::]/hook")))
                .hasMessageEndingWith("but 2002:a00:1:0:0:0:0:0, which carries 10.0.0.1, is private");
    }

    @Test
    void shouldCheckAnIpv4MappedAddressThatResolvesAsIpv6() throws Exception {
        // Java turns ::ffff:a.b.c.d literals into IPv4 addresses; a resolver may still hand out the IPv6 form.
        byte[] mapped = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff, 127, 0, 0, 1};
        InetAddress address = Inet6Address.getByAddress(null, mapped, -1);
        WebhookDestinationPolicy mappedDns = new WebhookDestinationPolicy(false, host -> new InetAddress[] {address});

        assertThatThrownBy(() -> mappedDns.check(URI.create("https://mapped.example.com/hook")))
                .hasMessageEndingWith("is loopback");
    }

    @Test
    void shouldAllowEveryAddressWhenPrivateDestinationsAreAllowed() {
        WebhookDestinationPolicy allowing = new WebhookDestinationPolicy(true, WebhookDestinationPolicyTest::resolve);

        assertThatCode(() -> allowing.check(URI.create("http://localhost:8080/hook"))).doesNotThrowAnyException();
        assertThatCode(() -> allowing.check(URI.create("http://169.254.169.254/latest/meta-data"))).doesNotThrowAnyException();
    }

    @Test
    void shouldReportAHostThatDoesNotResolve() {
        assertThatThrownBy(() -> policy.check(URI.create("https://nowhere.example.com/hook"))).isInstanceOf(UnknownHostException.class);
    }

    /** The table above for names; address literals as Java parses them, with no lookup. */
    private static InetAddress[] resolve(String host) throws UnknownHostException {
        String[] addresses = DNS.get(host);
        if (addresses == null) {
            boolean literal = host.startsWith("[") || Character.isDigit(host.charAt(0));
            if (!literal) {
                throw new UnknownHostException(host);
            }
            return InetAddress.getAllByName(host);
        }
        InetAddress[] resolved = new InetAddress[addresses.length];
        for (int i = 0; i < addresses.length; i++) {
            resolved[i] = InetAddress.getByName(addresses[i]);
        }
        return resolved;
    }
}
