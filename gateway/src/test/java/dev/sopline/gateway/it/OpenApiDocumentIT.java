package dev.sopline.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.gateway.web.HttpErrorCodes;
import dev.sopline.schemas.command.ErrorCodes;
import dev.sopline.schemas.json.Json;
import dev.sopline.testing.SopApi;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The OpenAPI document is one a code generator and an agent can use as it is (CONTRACT section 10), and the one the
 * client-generation test builds its client from is the one the gateway serves.
 */
class OpenApiDocumentIT extends GatewayTestBase {

    /** The document the generated-client test's client is built from, at build time. */
    static final Path COMMITTED = Path.of("src/test/resources/openapi/sopline-api.json");
    private static final Pattern OPERATION_ID = Pattern.compile("[a-z][a-zA-Z]*");
    private static final Set<String> METHODS = Set.of("get", "put", "post", "delete", "patch");

    private JsonNode document;

    @BeforeEach
    void readDocument() throws IOException {
        SopApi.Response response = api().withToken(null).get("/openapi.json");
        assertThat(response.status()).isEqualTo(200);
        document = response.json();
        Files.createDirectories(Path.of("target"));
        Files.writeString(Path.of("target/openapi.json"), response.body());
    }

    @Test
    void shouldGiveEveryOperationAUniqueCamelCaseIdASummaryAndADescription() {
        List<String> ids = new ArrayList<>();
        operations().forEach((route, operation) -> {
            String id = operation.path("operationId").asString("");
            assertThat(id).as(route).matches(OPERATION_ID);
            assertThat(operation.path("summary").asString("")).as(route).isNotBlank();
            assertThat(operation.path("description").asString("")).as(route).isNotBlank();
            assertThat(operation.path("tags").isArray() && !operation.path("tags").isEmpty()).as(route).isTrue();
            ids.add(id);
        });
        assertThat(ids).doesNotHaveDuplicates()
                .contains("startInstance", "getInstance", "listInstances", "submitStep", "cancelInstance", "listPendingSteps",
                        "listProcesses", "getProcess", "registerProcess", "getMetrics", "createToken", "createWebhook", "createWorkspace");
    }

    @Test
    void shouldLeaveOutFrameworkRoutesAndDuplicates() {
        assertThat(document.path("openapi").asString()).startsWith("3.1");
        assertThat(document.path("paths").propertyNames()).doesNotContain("/error", "/sop/").contains("/sop", "/sop/{name}/start");
    }

    @Test
    void shouldDocument201WhereTheServerAnswers201() {
        for (String id : List.of("startInstance", "registerProcess", "createToken", "createWebhook", "createWorkspace", "triggerProcess")) {
            JsonNode responses = operation(id).path("responses");
            assertThat(responses.has("201")).as(id).isTrue();
            assertThat(responses.has("200")).as(id).isFalse();
        }
        assertThat(document.path("components").path("schemas").path("StartedInstance").path("required").toString()).contains("\"id\"");
    }

    @Test
    void shouldTypeEverySuccessBodyAndEveryRequestBodyAsJson() {
        operations().forEach((route, operation) -> {
            operation.path("responses").properties().forEach(response -> {
                JsonNode content = response.getValue().path("content");
                assertThat(content.has("*/*")).as(route + " " + response.getKey()).isFalse();
                if (response.getKey().startsWith("2") && !response.getKey().equals("204")) {
                    assertThat(content.isObject() && !content.isEmpty()).as(route + " " + response.getKey() + " has a body").isTrue();
                    content.properties().forEach(media -> assertThat(isTyped(media.getValue().path("schema")))
                            .as(route + " " + response.getKey() + " " + media.getKey()).isTrue());
                }
            });
            JsonNode requestBody = operation.path("requestBody").path("content");
            requestBody.properties().forEach(media -> assertThat(isTyped(media.getValue().path("schema"))).as(route + " request").isTrue());
        });
        JsonNode instance = document.path("components").path("schemas").path("Instance").path("properties");
        assertThat(instance.propertyNames()).contains("id", "state", "started_at", "steps");
        assertThat(document.path("components").path("schemas").path("Step").path("properties").propertyNames())
                .contains("block", "branch", "callback_url");
        assertThat(operation("startInstance").path("requestBody").path("content").path("application/json").path("schema").path("$ref").asString())
                .isEqualTo("#/components/schemas/StartRequest");
    }

    @Test
    void shouldDescribeEveryErrorWithTheErrorSchemaAndExamplesOfEachCode() throws IllegalAccessException {
        Set<String> documented = new HashSet<>();
        operations().forEach((route, operation) -> operation.path("responses").properties().forEach(response -> {
            if (response.getKey().startsWith("4") || response.getKey().startsWith("5")) {
                JsonNode json = response.getValue().path("content").path("application/json");
                assertThat(json.path("schema").path("$ref").asString()).as(route + " " + response.getKey()).isEqualTo("#/components/schemas/Error");
                documented.addAll(json.path("examples").propertyNames());
            }
        }));
        Set<String> codes = new HashSet<>(constants(ErrorCodes.class));
        codes.addAll(constants(HttpErrorCodes.class));
        codes.remove(HttpErrorCodes.HEADERS_TOO_LARGE); // the container's, before any route: not an operation's answer
        assertThat(documented).containsAll(codes);
        assertThat(operation("submitStep").path("responses").path("422").path("content").path("application/json").path("examples")
                .propertyNames()).contains("invalid_outputs", "invalid_transition");
        assertThat(operation("startInstance").path("responses").propertyNames()).contains("400", "401", "403", "404", "413", "422", "429", "503");
    }

    @Test
    void shouldOfferTheTokenHeaderAndBearerAndKeepTheRequiredRole() {
        JsonNode schemes = document.path("components").path("securitySchemes");
        assertThat(schemes.path("token").path("name").asString()).isEqualTo("X-SOP-Token");
        assertThat(schemes.path("bearer").path("scheme").asString()).isEqualTo("bearer");
        JsonNode submit = operation("submitStep");
        assertThat(submit.path("x-required-role").asString()).isEqualTo("worker");
        assertThat(operation("startInstance").path("x-required-role").asString()).isEqualTo("operator");
        assertThat(submit.path("security").toString()).contains("token", "bearer");
        assertThat(operation("resolveCallback").has("security")).isFalse();
    }

    @Test
    void shouldAcceptTheDocumentedBearerSchemeAndNameItOn401() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        HttpResponse<String> bearer = http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/sop/token"))
                .header("Authorization", "Bearer " + TOKEN).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(bearer.statusCode()).isEqualTo(200);
        assertThat(Json.mapper().readTree(bearer.body()).path("workspace").asString()).isEqualTo("default");
        HttpResponse<String> wrong = http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/sop/token"))
                .header("Authorization", "Bearer not-a-token").build(), HttpResponse.BodyHandlers.ofString());
        assertThat(wrong.statusCode()).isEqualTo(401);
        assertThat(wrong.headers().firstValue("WWW-Authenticate")).hasValue("Bearer");
        assertThat(Json.mapper().readTree(wrong.body()).path("error").asString()).isEqualTo("unauthorized");
    }

    @Test
    void shouldServeSwaggerUiAtDocsWithoutAToken() throws Exception {
        HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NORMAL).build();
        HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/docs")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("swagger-ui");
        SopApi.Response config = api().withToken(null).get("/openapi.json/swagger-config");
        assertThat(config.status()).isEqualTo(200);
        assertThat(config.json().path("url").asString()).isEqualTo("/openapi.json");
    }

    @Test
    void shouldServeTheDocumentTheGeneratedClientIsBuiltFrom() throws IOException {
        JsonNode committed = Json.mapper().readTree(Files.readString(COMMITTED));
        assertThat(document)
                .as("The served OpenAPI document changed: check target/openapi.json and copy it to " + COMMITTED
                        + " (the generated-client test builds its client from that file)")
                .isEqualTo(committed);
    }

    private Map<String, JsonNode> operations() {
        Map<String, JsonNode> operations = new java.util.LinkedHashMap<>();
        document.path("paths").properties().forEach(path -> path.getValue().properties().forEach(method -> {
            if (METHODS.contains(method.getKey())) {
                operations.put(method.getKey().toUpperCase() + " " + path.getKey(), method.getValue());
            }
        }));
        return operations;
    }

    private JsonNode operation(String operationId) {
        return operations().values().stream().filter(operation -> operation.path("operationId").asString("").equals(operationId))
                .findFirst().orElseThrow(() -> new AssertionError("No operation " + operationId));
    }

    private static boolean isTyped(JsonNode schema) {
        return schema.has("$ref") || schema.has("type") || schema.has("items");
    }

    private static List<String> constants(Class<?> type) throws IllegalAccessException {
        List<String> values = new ArrayList<>();
        for (Field field : type.getDeclaredFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class) {
                values.add((String) field.get(null));
            }
        }
        return values;
    }
}
