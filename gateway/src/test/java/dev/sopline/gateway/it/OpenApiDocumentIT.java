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
        assertThat(document.path("components").path("schemas").path("StartRequest").path("properties").path("inputs").has("example")).isTrue();
        assertThat(instance.path("id").has("example")).isTrue();
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

    /**
     * The other way round from the generated client, which ignores fields it does not know: nothing sent is
     * undocumented, and every field the document says is required is sent.
     */
    @Test
    void shouldDocumentEveryFieldTheServerSends() {
        SopApi api = api();
        String file = GatewayApiIT.REVIEW.replace("name: review", "name: doc-review");
        assertWireMatches("registerProcess", "201", api.register(file));
        SopApi.Response started = api.start("doc-review", Map.of("title", "Documented"));
        assertWireMatches("startInstance", "201", started);
        String id = started.json().path("id").asString();
        assertWireMatches("listProcesses", "200", api.get("/sop"));
        assertWireMatches("getProcess", "200", api.get("/sop/doc-review/schema"));
        assertWireMatches("listInstances", "200", api.get("/sop/instances?process=doc-review"));
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10))
                .until(() -> api.get("/sop/steps/pending?process=doc-review").json().toString().contains(id));
        assertWireMatches("listPendingSteps", "200", api.get("/sop/steps/pending?process=doc-review"));
        assertWireMatches("getInstance", "200", api.get("/sop/doc-review/" + id));
        assertWireMatches("listInstanceSteps", "200", api.get("/sop/doc-review/" + id + "/steps"));
        assertWireMatches("getMetrics", "200", api.get("/sop/metrics"));
        assertWireMatches("getCurrentToken", "200", api.get("/sop/token"));
        assertWireMatches("listTokens", "200", api.get("/workspace/tokens"));
        assertWireMatches("createToken", "201", api.post("/workspace/tokens", Map.of("name", "documented", "role", "viewer")));
        assertWireMatches("submitStep", "200", api.submit("doc-review", id, "read", Map.of("verdict", "accept")));
        assertWireMatches("getInstance", "200", api.get("/sop/doc-review/" + id));
        assertWireMatches("startInstance", "422", api.start("doc-review", Map.of("priority", "urgent")));
        assertWireMatches("cancelInstance", "422", api.post("/sop/doc-review/" + id + "/cancel", Map.of()));
    }

    private void assertWireMatches(String operationId, String status, SopApi.Response response) {
        assertThat(response.status()).as(operationId + ": " + response.body()).isEqualTo(Integer.parseInt(status));
        JsonNode schema = operation(operationId).path("responses").path(status).path("content").path("application/json").path("schema");
        List<String> mismatches = new ArrayList<>();
        collectMismatches(response.json(), schema, operationId, mismatches);
        assertThat(mismatches).as("fields sent but not documented, or documented as required but not sent").isEmpty();
    }

    private void collectMismatches(JsonNode value, JsonNode schema, String where, List<String> mismatches) {
        if (schema.has("$ref")) {
            String name = schema.path("$ref").asString().substring("#/components/schemas/".length());
            collectMismatches(value, document.path("components").path("schemas").path(name), where, mismatches);
        } else if (value.isArray() && schema.has("items")) {
            value.forEach(item -> collectMismatches(item, schema.path("items"), where + "[]", mismatches));
        } else if (value.isObject() && schema.has("properties")) {
            value.properties().forEach(field -> {
                JsonNode property = schema.path("properties").path(field.getKey());
                if (property.isMissingNode()) {
                    mismatches.add(where + "." + field.getKey() + " is not documented");
                } else {
                    collectMismatches(field.getValue(), property, where + "." + field.getKey(), mismatches);
                }
            });
            schema.path("required").forEach(required -> {
                if (!value.has(required.asString())) {
                    mismatches.add(where + "." + required.asString() + " is required but missing");
                }
            });
        }
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
        List<String> differences = new ArrayList<>();
        collectDifferences("", committed, document, differences);
        assertThat(differences)
                .as("The served OpenAPI document differs from " + COMMITTED + " (from which the generated-client test builds its "
                        + "client) at these places; if the change is meant, copy target/openapi.json over it")
                .isEmpty();
    }

    private static void collectDifferences(String where, JsonNode expected, JsonNode actual, List<String> differences) {
        if (expected.isObject() && actual.isObject()) {
            Set<String> names = new java.util.TreeSet<>(expected.propertyNames());
            names.addAll(actual.propertyNames());
            names.forEach(name -> collectDifferences(where + "/" + name, expected.path(name), actual.path(name), differences));
        } else if (!expected.equals(actual)) {
            differences.add(where);
        }
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
