package dev.sopline.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.testing.SopApi;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Editors fetch the process-file JSON Schema from the gateway, without a token, as published in the repository. */
class ProcessSchemaIT extends GatewayTestBase {

    @Test
    void shouldServeTheProcessFileSchemaWithoutAToken() throws IOException {
        SopApi.Response response = api().withToken(null).get("/schemas/process.json");

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.header("Content-Type")).startsWith("application/schema+json");
        assertThat(response.body()).isEqualTo(publishedSchema());
        JsonNode schema = response.json();
        assertThat(schema.path("$schema").asString()).isEqualTo("https://json-schema.org/draft/2020-12/schema");
        assertThat(schema.path("properties").has("process")).isTrue();
    }

    private static String publishedSchema() throws IOException {
        try (InputStream in = ProcessSchemaIT.class.getResourceAsStream("/schemas/process-file.schema.json")) {
            assertThat(in).as("schema on the classpath").isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
