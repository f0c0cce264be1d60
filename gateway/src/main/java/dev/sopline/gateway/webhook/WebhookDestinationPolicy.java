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
 * <p>IPv6 addresses that carry an IPv4 address are checked as the IPv4 address they hold: the mapped
 * ({@code ::ffff:127.0.0.1}) and old compatible ({@code ::127.0.0.1}) forms, NAT64's well-known prefix
 * ({@code 64:ff9b::/96}, last four bytes), the translated form of SIIT ({@code ::ffff:0:a.b.c.d}) and 6to4
 * ({@code 2002::/16}, bytes 2 to 5). The local-use NAT64 prefix ({@code 64:ff9b:1::/48}) places the address where
 * the network chooses, and Teredo ({@code 2001::/32}) hides it, so both are refused whole. A network that translates
 * under a prefix of its own outside these must filter that prefix itself: nothing in an address tells it apart.
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
            AddressRange.of("ff00::/8", "multicast"),
            AddressRange.of("240.0.0.0/4", "reserved"), // with 255.255.255.255, the local network's broadcast
            AddressRange.of("192.0.0.0/24", "reserved"), // protocol assignments, NAT64 discovery among them
            AddressRange.of("198.18.0.0/15", "private"), // benchmarking networks, often used inside data centres
            AddressRange.of("fec0::/10", "private"), // site-local, deprecated but still routed by some networks
            AddressRange.of("100::/64", "reserved"), // discard-only
            AddressRange.of("64:ff9b:1::/48", "private"),
            AddressRange.of("2001::/32", "a tunnel"));

    private static final AddressRange NAT64_WELL_KNOWN = AddressRange.of("64:ff9b::/96", "NAT64");
    private static final AddressRange SIX_TO_FOUR = AddressRange.of("2002::/16", "6to4");
    private static final AddressRange SIIT_TRANSLATED = AddressRange.of("::ffff:0:0:0/96", "SIIT");

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
                throw forbidden(host, address.getHostAddress(), range.get());
            }
            Optional<InetAddress> carried = address instanceof Inet6Address ? embeddedIpv4(address) : Optional.empty();
            Optional<AddressRange> carriedRange = carried.flatMap(WebhookDestinationPolicy::forbiddenRangeOf);
            if (carriedRange.isPresent()) {
                throw forbidden(host, address.getHostAddress() + ", which carries " + carried.get().getHostAddress() + ",", carriedRange.get());
            }
        }
    }

    private static ForbiddenDestinationException forbidden(String host, String address, AddressRange range) {
        return new ForbiddenDestinationException("Expected the webhook host '%s' to have only public addresses, but %s is %s"
                .formatted(host, address, range.kind()));
    }

    private static Optional<AddressRange> forbiddenRangeOf(InetAddress address) {
        return FORBIDDEN.stream().filter(forbidden -> forbidden.contains(address)).findFirst();
    }

    /** The IPv4 address an IPv6 one carries, if it is of a form that carries one. */
    private static Optional<InetAddress> embeddedIpv4(InetAddress address) {
        byte[] bytes = address.getAddress();
        boolean zeroPrefix = Arrays.equals(bytes, 0, 10, new byte[10], 0, 10);
        boolean mapped = zeroPrefix && bytes[10] == (byte) 0xff && bytes[11] == (byte) 0xff;
        boolean compatible = zeroPrefix && bytes[10] == 0 && bytes[11] == 0;
        if (mapped || compatible || NAT64_WELL_KNOWN.contains(address) || SIIT_TRANSLATED.contains(address)) {
            return Optional.of(ipv4(bytes, 12));
        }
        if (SIX_TO_FOUR.contains(address)) {
            return Optional.of(ipv4(bytes, 2));
        }
        return Optional.empty();
    }

    private static InetAddress ipv4(byte[] bytes, int from) {
        try {
            return InetAddress.getByAddress(Arrays.copyOfRange(bytes, from, from + 4));
        } catch (UnknownHostException e) {
            throw new IllegalStateException("Four bytes are always an IPv4 address", e);
        }
    }
}
