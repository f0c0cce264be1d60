package dev.sopline.gateway.web;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.channels.SocketChannel;
import org.apache.coyote.http11.Http11NioProtocol;
import org.apache.tomcat.util.net.NioEndpoint;

/**
 * Tomcat's NIO HTTP/1.1 connector with a bound on the connections one client holds open
 * ({@link ConnectionsPerClient}). A connection past it is closed as it is accepted, before anything is read; the
 * client sees the connection closed. Set through the connector property {@code maxConnectionsPerClient}. Connections
 * from a trusted proxy ({@link TrustedProxies}, the connector property {@code trustedProxies}) are not limited: each
 * carries the requests of many clients, and the gateway tells those apart by their forwarded address.
 */
public class ClientLimitedNioProtocol extends Http11NioProtocol {

    public ClientLimitedNioProtocol() {
        super(new ClientLimitedEndpoint());
    }

    /** @param limit the most connections one client may hold open; 0 for no limit */
    public void setMaxConnectionsPerClient(int limit) {
        ((ClientLimitedEndpoint) getEndpoint()).clients = new ConnectionsPerClient(limit);
    }

    /** @param proxies addresses or CIDR ranges, comma-separated ({@link TrustedProxies#parse}) */
    public void setTrustedProxies(String proxies) {
        ((ClientLimitedEndpoint) getEndpoint()).proxies = TrustedProxies.parse(proxies);
    }

    public String getTrustedProxies() {
        return ((ClientLimitedEndpoint) getEndpoint()).proxies.toString();
    }

    public int getMaxConnectionsPerClient() {
        return ((ClientLimitedEndpoint) getEndpoint()).clients.limit();
    }

    static final class ClientLimitedEndpoint extends NioEndpoint {

        private volatile ConnectionsPerClient clients = new ConnectionsPerClient(0);
        private volatile TrustedProxies proxies = TrustedProxies.none();

        /**
         * Called by the acceptor for each new connection. A refused one is destroyed here (closed, and no longer counted
         * in {@code maxConnections}), as Tomcat's own method does with a connection it could not set up: the acceptor
         * only closes connections that got as far as their wrapper.
         */
        @Override
        protected boolean setSocketOptions(SocketChannel socket) {
            SocketAddress remote;
            try {
                remote = socket.getRemoteAddress();
            } catch (IOException e) {
                destroySocket(socket);
                return false;
            }
            if (remote instanceof InetSocketAddress address && address.getAddress() != null
                    && !proxies.contains(address.getAddress()) && !clients.admit(socket, address.getAddress())) {
                destroySocket(socket);
                return false;
            }
            return super.setSocketOptions(socket);
        }
    }
}
