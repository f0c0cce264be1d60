package dev.sopline.gateway.webhook;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * A block of IP addresses in CIDR notation, such as {@code 10.0.0.0/8} or {@code fc00::/7}. Written here because the
 * JDK has no CIDR matcher, and the servlet container's would tie webhook delivery to the web server in use.
 *
 * @param network the block's first address
 * @param prefixLength how many leading bits every address of the block shares with {@code network}
 * @param kind what the block is, for messages: {@code loopback}, {@code private}, ...
 */
record AddressRange(InetAddress network, int prefixLength, String kind) {

    /** @param cidr an address literal and a prefix length, never a host name: nothing is looked up */
    static AddressRange of(String cidr, String kind) {
        int slash = cidr.indexOf('/');
        try {
            return new AddressRange(InetAddress.getByName(cidr.substring(0, slash)),
                    Integer.parseInt(cidr.substring(slash + 1)), kind);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("Expected an address literal in '%s'".formatted(cidr), e);
        }
    }

    boolean contains(InetAddress address) {
        byte[] candidate = address.getAddress();
        byte[] block = network.getAddress();
        if (candidate.length != block.length) {
            return false;
        }
        int wholeBytes = prefixLength / 8;
        for (int i = 0; i < wholeBytes; i++) {
            if (candidate[i] != block[i]) {
                return false;
            }
        }
        int restBits = prefixLength % 8;
        if (restBits == 0) {
            return true;
        }
        int mask = 0xff << (8 - restBits) & 0xff;
        return (candidate[wholeBytes] & mask) == (block[wholeBytes] & mask);
    }

    @Override
    public String toString() {
        return network.getHostAddress() + "/" + prefixLength + " (" + kind + ")";
    }
}
