package dev.sopline.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;

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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
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
        // Event streams need no engine, only the platform's topics.
        ConfigurableApplicationContext gateway = EnginelessGateway.start(dataDir, TOKEN);
        int port = EnginelessGateway.port(gateway);
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
