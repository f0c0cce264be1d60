package dev.sopline.gateway.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.nio.channels.Channel;
import org.junit.jupiter.api.Test;

class ConnectionsPerClientTest {

    /** A channel that is open until closed. */
    private static final class FakeChannel implements Channel {
        private boolean open = true;

        @Override
        public boolean isOpen() {
            return open;
        }

        @Override
        public void close() {
            open = false;
        }
    }

    @Test
    void shouldRefuseAClientPastItsLimitUntilOneOfItsConnectionsCloses() throws Exception {
        ConnectionsPerClient clients = new ConnectionsPerClient(2);
        InetAddress one = InetAddress.getByName("203.0.113.7");
        FakeChannel first = new FakeChannel();

        assertThat(clients.admit(first, one)).isTrue();
        assertThat(clients.admit(new FakeChannel(), one)).isTrue();
        assertThat(clients.admit(new FakeChannel(), one)).isFalse();
        assertThat(clients.admit(new FakeChannel(), InetAddress.getByName("203.0.113.8"))).as("another client").isTrue();

        first.close();

        assertThat(clients.admit(new FakeChannel(), one)).isTrue();
        assertThat(clients.admit(new FakeChannel(), one)).isFalse();
    }

    @Test
    void shouldCountAnIpv6Slash64AsOneClient() throws Exception {
        ConnectionsPerClient clients = new ConnectionsPerClient(1);

        assertThat(clients.admit(new FakeChannel(), InetAddress.getByName("2001:db8:1:2::1"))).isTrue();
        assertThat(clients.admit(new FakeChannel(), InetAddress.getByName("2001:db8:1:2:ffff::9"))).as("the same /64").isFalse();
        assertThat(clients.admit(new FakeChannel(), InetAddress.getByName("2001:db8:1:3::1"))).as("the next /64").isTrue();
        assertThat(ConnectionsPerClient.clientOf(InetAddress.getByName("2001:db8:1:2::1"))).isEqualTo("/64 of 2001:db8:1:2::");
    }

    @Test
    void shouldAdmitEveryConnectionWithoutALimit() throws Exception {
        ConnectionsPerClient clients = new ConnectionsPerClient(0);
        InetAddress one = InetAddress.getByName("203.0.113.7");

        for (int i = 0; i < 5_000; i++) {
            assertThat(clients.admit(new FakeChannel(), one)).isTrue();
        }
        assertThat(clients.counted(one)).as("nothing kept").isZero();
    }

    @Test
    void shouldForgetClosedConnectionsOfClientsThatDoNotComeBack() throws Exception {
        ConnectionsPerClient clients = new ConnectionsPerClient(10);
        InetAddress gone = InetAddress.getByName("198.51.100.1");
        FakeChannel closed = new FakeChannel();
        clients.admit(closed, gone);
        closed.close();

        for (int i = 0; i < ConnectionsPerClient.SWEEP_EVERY; i++) {
            FakeChannel passing = new FakeChannel();
            clients.admit(passing, InetAddress.getByName("198.51.100." + (2 + i % 200)));
            passing.close();
        }

        assertThat(clients.counted(gone)).isZero();
    }
}
