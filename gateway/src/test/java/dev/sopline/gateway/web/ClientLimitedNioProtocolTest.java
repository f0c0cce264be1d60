package dev.sopline.gateway.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.catalina.Context;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real Tomcat with the connector the gateway uses, clients on two loopback addresses, and a trusted proxy on a third
 * ({@link TrustedProxies}, set up as {@code TomcatConfig} sets it up).
 */
class ClientLimitedNioProtocolTest {

    private static final String REQUEST = "GET / HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n";
    private static final String PROXY = "127.0.0.3";

    private Tomcat tomcat;
    private int port;

    @BeforeEach
    void startTomcat(@TempDir Path baseDir) throws Exception {
        tomcat = new Tomcat();
        tomcat.setBaseDir(baseDir.toString());
        Connector connector = new Connector(ClientLimitedNioProtocol.class.getName());
        connector.setPort(0);
        connector.setProperty("address", "127.0.0.1");
        connector.setProperty("maxConnectionsPerClient", "2");
        // Few, so that a refused connection still counted against it would soon stop the acceptor.
        connector.setProperty("maxConnections", "4");
        TrustedProxies proxies = TrustedProxies.parse(PROXY);
        connector.setProperty("trustedProxies", proxies.toString());
        tomcat.getEngine().getPipeline().addValve(proxies.valve());
        tomcat.getService().addConnector(connector);
        tomcat.setConnector(connector);
        Context context = tomcat.addContext("", baseDir.toString());
        Tomcat.addServlet(context, "ok", new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
                response.getWriter().write("ok");
            }
        });
        context.addServletMappingDecoded("/", "ok");
        Tomcat.addServlet(context, "client", new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
                response.getWriter().write("client=" + request.getRemoteAddr());
            }
        });
        context.addServletMappingDecoded("/client", "client");
        tomcat.start();
        port = connector.getLocalPort();
    }

    @AfterEach
    void stopTomcat() throws Exception {
        tomcat.stop();
        tomcat.destroy();
    }

    @Test
    void shouldCloseAClientsConnectionPastItsLimitAndServeOtherClients() throws Exception {
        try (Socket slowA = trickling("127.0.0.1"); Socket slowB = trickling("127.0.0.1")) {
            for (int i = 0; i < 10; i++) {
                try (Socket third = connect("127.0.0.1")) {
                    third.setSoTimeout(5_000);
                    assertThat(endOfStreamOrReset(third)).as("a third connection from the client holding two is closed").isTrue();
                }
            }
            assertThat(answer("127.0.0.2")).as("another client").startsWith("HTTP/1.1 200").endsWith("ok");

            slowA.close();

            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(answer("127.0.0.1")).startsWith("HTTP/1.1 200"));
            assertThat(slowB.isClosed()).isFalse();
        }
    }

    @Test
    void shouldNotLimitTheConnectionsOfATrustedProxy() throws Exception {
        try (Socket slowA = trickling(PROXY); Socket slowB = trickling(PROXY)) {
            assertThat(answer(PROXY)).as("a third connection from the proxy, which carries many clients").startsWith("HTTP/1.1 200");
        }
    }

    @Test
    void shouldTakeTheClientFromTheForwardedHeaderOfATrustedProxyOnly() throws Exception {
        String forwarded = "GET /client HTTP/1.1\r\nHost: test\r\nX-Forwarded-For: 198.51.100.7, 203.0.113.9\r\nConnection: close\r\n\r\n";

        assertThat(answer(PROXY, forwarded)).as("the right-most address the proxy forwards: the one it saw")
                .endsWith("client=203.0.113.9");
        assertThat(answer("127.0.0.2", forwarded)).as("a client that sends the header itself").endsWith("client=127.0.0.2");
    }

    @Test
    void shouldRefuseAProxyListThatIsNotAddresses() {
        assertThatThrownBy(() -> TrustedProxies.parse("10.0.0.0/8, proxy.example.com/33"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'proxy.example.com/33'");
        assertThat(TrustedProxies.parse(" 10.0.0.0/8 , ::1 ").toString()).isEqualTo("10.0.0.0/8,::1/128");
        assertThat(TrustedProxies.parse("").isEmpty()).isTrue();
    }

    @Test
    void shouldReadTheLimitBackFromTheConnector() {
        assertThat(((ClientLimitedNioProtocol) tomcat.getConnector().getProtocolHandler()).getMaxConnectionsPerClient()).isEqualTo(2);
    }

    /** A connection that sends the first line of a request head and no more, as a slow-loris client does. */
    private Socket trickling(String from) throws IOException {
        Socket socket = connect(from);
        socket.getOutputStream().write("GET / HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII));
        socket.getOutputStream().flush();
        // Answered by neither the server nor a refusal: the server is waiting for the rest of the head.
        assertThat(readAll(socket, Duration.ofMillis(300))).isEmpty();
        return socket;
    }

    /** A whole request from a client address; what came back, empty when the connection was closed without a word. */
    private String answer(String from) throws IOException {
        return answer(from, REQUEST);
    }

    private String answer(String from, String request) throws IOException {
        try (Socket socket = connect(from)) {
            try {
                socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
                socket.getOutputStream().flush();
            } catch (IOException closedAlready) {
                return "";
            }
            return readAll(socket, Duration.ofSeconds(5));
        }
    }

    private static boolean endOfStreamOrReset(Socket socket) {
        try {
            return socket.getInputStream().read() == -1;
        } catch (java.net.SocketTimeoutException stillOpen) {
            return false;
        } catch (IOException reset) {
            return true;
        }
    }

    private Socket connect(String from) throws IOException {
        Socket socket = new Socket();
        socket.bind(new InetSocketAddress(InetAddress.getByName(from), 0));
        socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
        return socket;
    }

    private static String readAll(Socket socket, Duration wait) throws IOException {
        socket.setSoTimeout((int) wait.toMillis());
        StringBuilder read = new StringBuilder();
        byte[] buffer = new byte[1024];
        try {
            InputStream in = socket.getInputStream();
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                read.append(new String(buffer, 0, n, StandardCharsets.US_ASCII));
            }
        } catch (java.net.SocketTimeoutException | java.net.SocketException stopped) {
            // nothing more within the wait, or the server reset the connection
        }
        return read.toString();
    }
}
