package dev.sopline.gateway.config;

import dev.sopline.gateway.web.ClientLimitedNioProtocol;
import dev.sopline.gateway.web.JsonErrorReportValve;
import dev.sopline.gateway.web.TrustedProxies;
import org.apache.catalina.core.StandardHost;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.stereotype.Component;

/**
 * Tomcat for an API that strangers call:
 * <ul>
 *   <li>its own error pages become JSON: the host reports errors through {@link JsonErrorReportValve} instead of its
 *       HTML valve (set on the host before it starts, so it is the valve the host installs);</li>
 *   <li>its socket timeout (time to send the request line and headers, the longest pause within a body, idle
 *       keep-alive) is the request read timeout plus a margin, so that a trickled body meets the gateway's own
 *       timeout first and gets its 408 answer rather than a dropped connection;</li>
 *   <li>it holds at most {@value #MAX_CONNECTIONS} connections open at once; further ones wait in the accept queue.
 *       A connection whose request head arrives a line at a time costs about 57 KB of heap until it is whole, and
 *       Tomcat's default of 8,192 such connections is more than the standalone's 512 MB heap: about 4,500 of them,
 *       opened without a token from one address, filled it and stopped the platform. The bound keeps them to about
 *       170 MB, with room for a workspace's 1,000 held reads and the event streams beside them.</li>
 *   <li>one client (an IPv4 address, an IPv6 /64) holds at most {@code SOP_MAX_CONNECTIONS_PER_CLIENT} of them
 *       (default {@value #DEFAULT_MAX_CONNECTIONS_PER_CLIENT}, 0 for no limit; {@link ClientLimitedNioProtocol}), so
 *       that one client trickling request heads cannot take every connection from everyone else;</li>
 *   <li>behind reverse proxies named in {@code SOP_TRUSTED_PROXIES}, a request's client is the address they forward
 *       ({@link TrustedProxies}), and their own connections are not limited per client.</li>
 * </ul>
 */
@Component
public class TomcatConfig implements WebServerFactoryCustomizer<TomcatServletWebServerFactory> {

    private static final long SOCKET_TIMEOUT_MARGIN_MILLIS = 5_000;
    public static final int MAX_CONNECTIONS = 3_000;
    public static final int DEFAULT_MAX_CONNECTIONS_PER_CLIENT = 500;

    private final SopProperties properties;
    private final int maxConnectionsPerClient;
    private final TrustedProxies trustedProxies;

    public TomcatConfig(SopProperties properties,
                        @Value("${sop.max-connections-per-client:" + DEFAULT_MAX_CONNECTIONS_PER_CLIENT + "}") int maxConnectionsPerClient,
                        @Value("${sop.trusted-proxies:}") String trustedProxies) {
        this.properties = properties;
        this.maxConnectionsPerClient = maxConnectionsPerClient;
        this.trustedProxies = TrustedProxies.parse(trustedProxies);
    }

    @Override
    public void customize(TomcatServletWebServerFactory factory) {
        factory.addContextCustomizers(context -> {
            if (context.getParent() instanceof StandardHost host) {
                host.setErrorReportValveClass(JsonErrorReportValve.class.getName());
            }
        });
        long socketTimeout = properties.requestReadTimeout().toMillis() + SOCKET_TIMEOUT_MARGIN_MILLIS;
        factory.setProtocol(ClientLimitedNioProtocol.class.getName());
        factory.addConnectorCustomizers(connector -> {
            connector.setProperty("maxConnectionsPerClient", String.valueOf(maxConnectionsPerClient));
            connector.setProperty("connectionTimeout", String.valueOf(socketTimeout));
            connector.setProperty("maxConnections", String.valueOf(MAX_CONNECTIONS));
            connector.setProperty("trustedProxies", trustedProxies.toString());
        });
        if (!trustedProxies.isEmpty()) {
            factory.addEngineValves(trustedProxies.valve());
        }
    }
}
