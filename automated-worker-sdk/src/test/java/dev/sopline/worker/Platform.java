package dev.sopline.worker;

import dev.sopline.gateway.GatewayApplication;
import dev.sopline.testing.SharedKafka;
import dev.sopline.testing.SopApi;
import dev.sopline.testing.TemporaryDirectories;
import java.util.Map;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/** The gateway with its engine on the shared embedded broker, started once per test JVM, driven over HTTP. */
final class Platform {

    static final String TOKEN = "sdk-test-token";
    private static Platform instance;

    private final String baseUrl;
    private final SopApi api;

    private Platform(String baseUrl) {
        this.baseUrl = baseUrl;
        this.api = new SopApi(baseUrl, TOKEN);
    }

    static synchronized Platform get() {
        if (instance == null) {
            ConfigurableApplicationContext context = SpringApplication.run(GatewayApplication.class,
                    "--server.port=0",
                    "--sop.kafka.bootstrap-servers=" + SharedKafka.bootstrapServers(),
                    "--sop.bootstrap-token=" + TOKEN,
                    // The platform runs until the JVM exits: its data directory is deleted then, once it is closed.
                    "--sop.data-dir=" + TemporaryDirectories.deletedAtExit("sdk-platform"),
                    "--sop.rate-limit.per-second=1000",
                    "--sop.rate-limit.burst=2000");
            instance = new Platform("http://localhost:" + context.getEnvironment().getProperty("local.server.port"));
        }
        return instance;
    }

    String baseUrl() {
        return baseUrl;
    }

    void register(String yaml) {
        SopApi.Response response = api.register(yaml);
        if (response.status() != 201) {
            throw new IllegalStateException("registration failed: " + response.body());
        }
    }

    String start(String process, Map<String, Object> inputs) {
        SopApi.Response response = api.start(process, inputs);
        if (response.status() != 201) {
            throw new IllegalStateException("start failed: " + response.body());
        }
        return response.json().path("id").asString();
    }

    SopApi api() {
        return api;
    }

    JsonNode get(String path) {
        return api.get(path).json();
    }

    JsonNode instance(String process, String id) {
        return api.get("/sop/" + process + "/" + id).json();
    }

    static String oneStepProcess(String name, String run) {
        return """
                engine: "0.1"
                process:
                  name: %s
                  version: "1.0"
                  inputs:
                    - name: n
                      type: integer
                      required: true
                  steps:
                    - id: work
                      type: automated
                      run: %s
                      inputs:
                        n: "${inputs.n}"
                      outputs:
                        - name: result
                """.formatted(name, run);
    }
}
