package dev.sopline.standalone;

import dev.sopline.standalone.PortCheck.PortSetting;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What the standalone launcher reads from the environment, read once and checked before anything starts.
 *
 * @param externalBootstrap {@code KAFKA_BOOTSTRAP_SERVERS}, or null for the embedded broker
 */
record StandaloneSettings(Path dataDir, int httpPort, int kafkaPort, int controllerPort, String externalBootstrap,
                          boolean judgmentWorker, boolean bootstrapTokenSet) {

    static final String HTTP_PORT = "SOP_HTTP_PORT";
    static final String KAFKA_PORT = "SOP_KAFKA_PORT";
    static final String CONTROLLER_PORT = "SOP_KAFKA_CONTROLLER_PORT";

    /** @throws IllegalArgumentException with a one-line message naming the variable, when a port is not a number */
    static StandaloneSettings from(Map<String, String> env) {
        String bootstrap = env.get("KAFKA_BOOTSTRAP_SERVERS");
        String token = env.get("SOP_BOOTSTRAP_TOKEN");
        return new StandaloneSettings(
                Path.of(env.getOrDefault("SOP_DATA_DIR", "./data")).toAbsolutePath().normalize(),
                port(env, HTTP_PORT, 8080),
                port(env, KAFKA_PORT, 29092),
                port(env, CONTROLLER_PORT, 29093),
                bootstrap == null || bootstrap.isBlank() ? null : bootstrap,
                !"false".equals(env.get("SOP_JUDGMENT_WORKER")),
                token != null && !token.isBlank());
    }

    boolean embeddedBroker() {
        return externalBootstrap == null;
    }

    /** The ports this process will listen on: the broker's only when it runs the embedded one. */
    List<PortSetting> ports() {
        List<PortSetting> ports = new ArrayList<>();
        ports.add(new PortSetting(HTTP_PORT, httpPort));
        if (embeddedBroker()) {
            ports.add(new PortSetting(KAFKA_PORT, kafkaPort));
            ports.add(new PortSetting(CONTROLLER_PORT, controllerPort));
        }
        return ports;
    }

    private static int port(Map<String, String> env, String variable, int fallback) {
        String value = env.get(variable);
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            int port = Integer.parseInt(value.trim());
            if (port >= 0 && port <= 65535) {
                return port;
            }
        } catch (NumberFormatException notANumber) {
            // reported below
        }
        throw new IllegalArgumentException("%s is '%s': set it to a port number from 1 to 65535".formatted(variable, value));
    }
}
