package dev.sopline.gateway.web;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.channels.Channel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The connections each client holds open, and whether it may open one more. A client is an IPv4 address, or an IPv6
 * /64 (one host is commonly handed a whole /64, so a limit per IPv6 address would hold no one back).
 *
 * <p>Tomcat has no such limit: the servlet container only sees a request once its head is read, which is what a
 * client trickling its head never finishes. So the count is kept where connections are accepted, from the channels
 * themselves: a channel that is no longer open is dropped from its client's list when that client connects again, and
 * every list at every {@value #SWEEP_EVERY}th admission. Calls are synchronized; Tomcat makes them from its one
 * acceptor thread, so the lock is never contended.
 */
public final class ConnectionsPerClient {

    private static final Logger LOG = LoggerFactory.getLogger(ConnectionsPerClient.class);
    static final int SWEEP_EVERY = 1024;
    private static final int LOG_EVERY = 1000;

    private final int limit;
    private final Map<String, List<Channel>> open = new HashMap<>();
    private int admittedSinceSweep;
    private long refused;

    /** @param limit the most connections one client may hold open at once; 0 or less for no limit */
    public ConnectionsPerClient(int limit) {
        this.limit = limit;
    }

    public int limit() {
        return limit;
    }

    /** Counts the channel for its client and returns true, or returns false when that client already holds the limit. */
    public synchronized boolean admit(Channel channel, InetAddress address) {
        if (limit <= 0) {
            return true;
        }
        String client = clientOf(address);
        List<Channel> channels = open.computeIfAbsent(client, any -> new ArrayList<>());
        channels.removeIf(held -> !held.isOpen());
        if (channels.size() >= limit) {
            if (refused++ % LOG_EVERY == 0) {
                LOG.warn("Closed a connection from {}, which holds {} open, the most one client may; {} refused so far",
                        client, channels.size(), refused);
            }
            return false;
        }
        channels.add(channel);
        if (++admittedSinceSweep >= SWEEP_EVERY) {
            admittedSinceSweep = 0;
            open.values().forEach(held -> held.removeIf(each -> !each.isOpen()));
            open.values().removeIf(List::isEmpty);
        }
        return true;
    }

    /** Connections counted for the client of this address, those closed since included until they are noticed. */
    synchronized int counted(InetAddress address) {
        return open.getOrDefault(clientOf(address), List.of()).size();
    }

    /**
     * The client a request's remote address (an IP literal, as the container gives it) belongs to, as
     * {@link #clientOf(InetAddress)} says: an IPv4 address, or an IPv6 address's /64, which one host may hold whole
     * and change addresses within at will. Per-address rate limits count by it, as the connection limit does.
     */
    public static String clientOf(String remoteAddress) {
        if (remoteAddress == null || remoteAddress.indexOf(':') < 0) {
            return remoteAddress;
        }
        try {
            return clientOf(InetAddress.getByName(remoteAddress)); // a literal with ':' is parsed, never looked up
        } catch (UnknownHostException e) {
            return remoteAddress;
        }
    }

    static String clientOf(InetAddress address) {
        if (address instanceof Inet6Address) {
            byte[] network = Arrays.copyOf(address.getAddress(), 8);
            return "/64 of " + networkText(network);
        }
        return address.getHostAddress();
    }

    private static String networkText(byte[] network) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 8; i += 2) {
            text.append(Integer.toHexString((network[i] & 0xff) << 8 | network[i + 1] & 0xff)).append(':');
        }
        return text.append(':').toString();
    }
}
