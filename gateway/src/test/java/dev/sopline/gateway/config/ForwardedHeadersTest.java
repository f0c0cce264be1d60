package dev.sopline.gateway.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.Map;
import org.apache.catalina.Valve;
import org.apache.catalina.valves.RemoteIpValve;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.web.WebProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.env.PropertiesPropertySourceLoader;
import org.springframework.boot.tomcat.autoconfigure.TomcatServerProperties;
import org.springframework.boot.tomcat.autoconfigure.TomcatWebServerFactoryCustomizer;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.autoconfigure.ServerProperties;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.io.ClassPathResource;

/**
 * On a cloud platform (Kubernetes is recognised by its environment variables) Spring Boot turns on Tomcat's handling of
 * forwarded headers by itself and believes them from any private address; the gateway's settings keep it off, so
 * that only {@code SOP_TRUSTED_PROXIES} decides whose {@code X-Forwarded-For} counts.
 */
class ForwardedHeadersTest {

    @Test
    void shouldNotBelieveForwardedHeadersOnKubernetesUnlessProxiesAreNamed() throws IOException {
        assertThat(remoteIpValves(true)).as("with the gateway's settings").isZero();
        assertThat(remoteIpValves(false)).as("Spring Boot's default there").isEqualTo(1);
    }

    private static long remoteIpValves(boolean gatewaySettings) throws IOException {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("platform", Map.of("spring.main.cloud-platform", "kubernetes")));
        if (gatewaySettings) {
            for (PropertySource<?> source : new PropertiesPropertySourceLoader().load("gateway", new ClassPathResource("application.properties"))) {
                environment.getPropertySources().addLast(source);
            }
        }
        Binder binder = Binder.get(environment);
        TomcatServletWebServerFactory factory = new TomcatServletWebServerFactory();
        new TomcatWebServerFactoryCustomizer(environment,
                binder.bind("server", ServerProperties.class).orElseGet(ServerProperties::new),
                binder.bind("server.tomcat", TomcatServerProperties.class).orElseGet(TomcatServerProperties::new),
                binder.bind("spring.web", WebProperties.class).orElseGet(WebProperties::new)).customize(factory);
        return factory.getEngineValves().stream().map(Valve::getClass).filter(RemoteIpValve.class::equals).count();
    }
}
