package dev.sopline.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.engine.api.topic.EngineTopics;
import dev.sopline.gateway.GatewayApplication;
import dev.sopline.testing.SharedKafka;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Stopping a gateway with live event streams open: the streams end as the gateway begins to stop, as a complete
 * response the client can read to its end, instead of holding up the graceful shutdown until it gives up and cuts
 * the connections.
 */
class GatewayShutdownIT {

    private static final String TOKEN = "shutdown-it-token";

    @Test
    void shouldEndOpenEventStreamsCleanlyWhenTheGatewayStops(@TempDir Path dataDir) throws Exception {
        // A gateway without an engine of its own: one would join the shared test engine's group and move its partitions
        // under the other tests of this JVM. Event streams need no engine, only the platform's topics.
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, SharedKafka.bootstrapServers()))) {
            EngineTopics.ensure(admin, 6, 6, (short) 1);
        }
        // Arguments, not default properties: application.properties would outrank those.
        ConfigurableApplicationContext gateway = new SpringApplicationBuilder(GatewayApplication.class).run(
                "--server.port=0",
                "--sop.kafka.bootstrap-servers=" + SharedKafka.bootstrapServers(),
                "--sop.bootstrap-token=" + TOKEN,
                "--sop.data-dir=" + dataDir,
                "--sop.engine.query-urls=http://localhost:9");
        int port = gateway.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/sop/events"))
                .header("X-SOP-Token", TOKEN).build();
        HttpResponse<Stream<String>> stream = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofLines());
        assertThat(stream.statusCode()).isEqualTo(200);
        // Read to the end: a stream cut off instead of ended throws here ("EOF reached while reading").
        CompletableFuture<List<String>> wholeStream = CompletableFuture.supplyAsync(() -> stream.body().toList());

        gateway.close();

        assertThat(wholeStream).succeedsWithin(Duration.ofSeconds(10)).asList().contains(":open");
        assertThat(wholeStream.get(0, TimeUnit.SECONDS)).isNotEmpty();
    }
}
