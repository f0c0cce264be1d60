package dev.sopline.gateway.config;

import dev.sopline.gateway.web.JsonErrorReportValve;
import org.apache.catalina.core.StandardHost;
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
 *       timeout first and gets its 408 answer rather than a dropped connection.</li>
 * </ul>
 */
@Component
public class TomcatConfig implements WebServerFactoryCustomizer<TomcatServletWebServerFactory> {

    private static final long SOCKET_TIMEOUT_MARGIN_MILLIS = 5_000;

    private final SopProperties properties;

    public TomcatConfig(SopProperties properties) {
        this.properties = properties;
    }

    @Override
    public void customize(TomcatServletWebServerFactory factory) {
        factory.addContextCustomizers(context -> {
            if (context.getParent() instanceof StandardHost host) {
                host.setErrorReportValveClass(JsonErrorReportValve.class.getName());
            }
        });
        long socketTimeout = properties.requestReadTimeout().toMillis() + SOCKET_TIMEOUT_MARGIN_MILLIS;
        factory.addConnectorCustomizers(connector -> connector.setProperty("connectionTimeout", String.valueOf(socketTimeout)));
    }
}
