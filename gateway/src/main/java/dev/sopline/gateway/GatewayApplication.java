package dev.sopline.gateway;

import dev.sopline.gateway.config.SopProperties;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;

/** The gateway: the whole HTTP API, with an engine replica in the same JVM answering its queries. */
@SpringBootApplication
@EnableConfigurationProperties(SopProperties.class)
public class GatewayApplication {

    public static void main(String[] args) {
        SpringApplication.run(GatewayApplication.class, args);
    }
}
