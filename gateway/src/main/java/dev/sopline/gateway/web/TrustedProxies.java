package dev.sopline.gateway.web;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import org.apache.catalina.util.NetMask;
import org.apache.catalina.valves.RemoteIpValve;

/**
 * The reverse proxies whose {@code X-Forwarded-For} the gateway believes ({@code SOP_TRUSTED_PROXIES}: addresses or
 * CIDR ranges, comma-separated; none by default).
 *
 * <p>Behind a proxy every request comes from the proxy's address, so everything the gateway counts per client address
 * (failed authentications, the request budget of calls without a token: signed triggers and webhook callbacks) is
 * counted for all of the proxy's clients together, and one of them could use up everyone's. With the proxy named here,
 * Tomcat's {@link RemoteIpValve} takes the client's address from the header instead: the right-most address in it
 * that is not itself a trusted proxy, so a client cannot choose it by sending the header itself. From any other
 * address the header is ignored, which is also why nothing is trusted by default.
 */
public final class TrustedProxies {

    private static final TrustedProxies NONE = new TrustedProxies(List.of());

    private final List<NetMask> ranges;

    private TrustedProxies(List<NetMask> ranges) {
        this.ranges = ranges;
    }

    public static TrustedProxies none() {
        return NONE;
    }

    /** @throws IllegalArgumentException naming the entry that is neither an address nor a CIDR range */
    public static TrustedProxies parse(String setting) {
        if (setting == null || setting.isBlank()) {
            return NONE;
        }
        List<NetMask> ranges = new ArrayList<>();
        for (String entry : setting.split(",")) {
            String range = entry.strip();
            if (range.isEmpty()) {
                continue;
            }
            try {
                ranges.add(new NetMask(range.indexOf('/') >= 0 ? range : range + (range.indexOf(':') >= 0 ? "/128" : "/32")));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("Expected SOP_TRUSTED_PROXIES to list addresses or CIDR ranges, such as 10.0.0.0/8, but '"
                        + range + "' is neither", e);
            }
        }
        return new TrustedProxies(List.copyOf(ranges));
    }

    public boolean isEmpty() {
        return ranges.isEmpty();
    }

    public boolean contains(InetAddress address) {
        return ranges.stream().anyMatch(range -> range.matches(address));
    }

    /**
     * Tomcat's valve for these proxies. Given ranges (every entry has a {@code /}), the valve matches addresses as
     * ranges; an entry without one would be read as a regular expression, where each {@code .} matches any character.
     */
    public RemoteIpValve valve() {
        RemoteIpValve valve = new RemoteIpValve();
        valve.setInternalProxies(toString());
        valve.setRemoteIpHeader("X-Forwarded-For");
        valve.setProtocolHeader("X-Forwarded-Proto");
        return valve;
    }

    @Override
    public String toString() {
        return String.join(",", ranges.stream().map(NetMask::toString).toList());
    }
}
