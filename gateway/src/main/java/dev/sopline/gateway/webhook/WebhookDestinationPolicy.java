package dev.sopline.gateway.webhook;

import dev.sopline.gateway.config.SopProperties;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * Where webhooks may be delivered (CONTRACT section 8): only to public addresses, so that a subscription cannot make
 * the gateway call its own host, the cluster's network or a cloud metadata service (server-side request forgery).
 * A host name is resolved and <em>every</em> address it has is checked, since the HTTP client may connect to any of
 * them. {@code SOP_WEBHOOK_ALLOW_PRIVATE=true} turns the check off, for development and tests.
 *
 * <p>IPv4 addresses written as IPv6 ({@code ::ffff:127.0.0.1}, and the old compatible form {@code ::127.0.0.1}) are
 * checked as the IPv4 address they hold. Not handled: translation prefixes that embed an IPv4 address (NAT64
 * {@code 64:ff9b::/96}, 6to4 {@code 2002::/16}); a network that routes them must filter them itself.
 */
@Component
public class WebhookDestinationPolicy {

    /** Looks up a host's addresses; {@link InetAddress#getAllByName} outside tests. */
    @FunctionalInterface
    public interface Resolver {
        InetAddress[] resolve(String host) throws UnknownHostException;
    }

    private static final List<AddressRange> FORBIDDEN = List.of(
            AddressRange.of("127.0.0.0/8", "loopback"),
            AddressRange.of("::1/128", "loopback"),
            AddressRange.of("10.0.0.0/8", "private"),
            AddressRange.of("172.16.0.0/12", "private"),
            AddressRange.of("192.168.0.0/16", "private"),
            AddressRange.of("100.64.0.0/10", "private"),
            AddressRange.of("fc00::/7", "private"),
            AddressRange.of("169.254.0.0/16", "link-local"),
            AddressRange.of("fe80::/10", "link-local"),
            AddressRange.of("0.0.0.0/8", "unspecified"),
            AddressRange.of("::/128", "unspecified"),
            AddressRange.of("224.0.0.0/4", "multicast"),
            AddressRange.of("ff00::/8", "multicast"));

    private final boolean allowPrivate;
    private final Resolver resolver;

    @Autowired
    public WebhookDestinationPolicy(SopProperties properties) {
        this(properties.webhook().allowPrivate(), InetAddress::getAllByName);
    }

    public WebhookDestinationPolicy(boolean allowPrivate, Resolver resolver) {
        this.allowPrivate = allowPrivate;
        this.resolver = resolver;
    }

    /**
     * Checks the host of an http(s) URL.
     *
     * @throws ForbiddenDestinationException when any of the host's addresses is not a public one
     * @throws UnknownHostException when the host name does not resolve
     */
    public void check(URI url) throws ForbiddenDestinationException, UnknownHostException {
        if (allowPrivate) {
            return;
        }
        String host = url.getHost();
        for (InetAddress address : resolver.resolve(host)) {
            Optional<AddressRange> range = forbiddenRangeOf(address);
            if (range.isPresent()) {
                throw new ForbiddenDestinationException("Expected the webhook host '%s' to have only public addresses, but %s is %s"
                        .formatted(host, address.getHostAddress(), range.get().kind()));
            }
        }
    }

    private static Optional<AddressRange> forbiddenRangeOf(InetAddress address) {
        Optional<AddressRange> range = FORBIDDEN.stream().filter(forbidden -> forbidden.contains(address)).findFirst();
        if (range.isEmpty() && address instanceof Inet6Address) {
            return embeddedIpv4(address).flatMap(WebhookDestinationPolicy::forbiddenRangeOf);
        }
        return range;
    }

    /** The IPv4 address in an IPv4-mapped ({@code ::ffff:a.b.c.d}) or IPv4-compatible ({@code ::a.b.c.d}) one. */
    private static Optional<InetAddress> embeddedIpv4(InetAddress address) {
        byte[] bytes = address.getAddress();
        boolean zeroPrefix = Arrays.equals(bytes, 0, 10, new byte[10], 0, 10);
        boolean mapped = zeroPrefix && bytes[10] == (byte) 0xff && bytes[11] == (byte) 0xff;
        boolean compatible = zeroPrefix && bytes[10] == 0 && bytes[11] == 0;
        if (!mapped && !compatible) {
            return Optional.empty();
        }
        try {
            return Optional.of(InetAddress.getByAddress(Arrays.copyOfRange(bytes, 12, 16)));
        } catch (UnknownHostException e) {
            throw new IllegalStateException("Four bytes are always an IPv4 address", e);
        }
    }
}
