package dev.sopline.gateway.config;

import dev.sopline.gateway.api.doc.AccessSchemas;
import dev.sopline.gateway.api.doc.ErrorCatalog;
import dev.sopline.gateway.api.doc.ErrorSchemas;
import dev.sopline.gateway.api.doc.OtherOperations;
import dev.sopline.gateway.security.ApiPaths;
import dev.sopline.gateway.security.RouteRoles;
import io.swagger.v3.core.converter.ModelConverters;
import io.swagger.v3.core.util.Json;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.examples.Example;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.media.ArraySchema;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.parameters.RequestBody;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import io.swagger.v3.oas.models.servers.Server;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.PropertySource;
import org.springframework.http.HttpMethod;

/**
 * Completes the generated document at {@code /openapi.json} (and the Swagger UI at {@code /docs}) with what the
 * controllers' signatures cannot say: the two ways to send a token, the least role of each operation
 * ({@code x-required-role}, from {@link RouteRoles}), the error body with every code each operation may answer and an
 * example of each, and the operations of controllers outside the API package. Framework routes ({@code /error}) and
 * the duplicate {@code /sop/} are left out, so that a code generator gets one method per operation.
 */
@Configuration(proxyBeanMethods = false)
@PropertySource("classpath:openapi-docs.properties")
public class OpenApiConfig {

    static final String TOKEN_SCHEME = "token";
    static final String BEARER_SCHEME = "bearer";
    private static final String ERROR = "Error";
    private static final String JSON = "application/json";
    private static final Set<String> HIDDEN_PATHS = Set.of("/error", "/sop/");
    private static final Pattern REFERENCE = Pattern.compile("#/components/schemas/([A-Za-z0-9_.-]+)");

    @Bean
    OpenApiCustomizer sopOpenApi() {
        return openApi -> {
            openApi.info(new Info().title("Sopline API").version("0.1").description("""
                    Register processes, start instances, resolve their steps, and follow them. Send a workspace token as \
                    `X-SOP-Token: <token>` or `Authorization: Bearer <token>`; each operation's `x-required-role` is the least \
                    role it needs. Every error is `{"error": <code>, "message", "details"}`; each response lists its codes. \
                    Agents can use the same operations as tools through the MCP server at `/mcp`."""));
            // Relative, so that the document is the same whatever host serves it, and "Try it out" calls that host.
            openApi.servers(List.of(new Server().url("/").description("This gateway")));
            Components components = openApi.getComponents() == null ? new Components() : openApi.getComponents();
            openApi.setComponents(components);
            components.addSecuritySchemes(TOKEN_SCHEME, new SecurityScheme().type(SecurityScheme.Type.APIKEY).in(SecurityScheme.In.HEADER)
                    .name(ApiPaths.TOKEN_HEADER).description("A workspace token"));
            components.addSecuritySchemes(BEARER_SCHEME, new SecurityScheme().type(SecurityScheme.Type.HTTP).scheme("bearer")
                    .description("The same workspace token, as `Authorization: Bearer <token>`"));
            boolean openApi31 = openApi.getOpenapi() != null && openApi.getOpenapi().startsWith("3.1");
            addSchemas(components, openApi31, ErrorSchemas.Error.class, AccessSchemas.WebhookRequest.class, AccessSchemas.Webhook.class,
                    AccessSchemas.WorkspaceRequest.class, AccessSchemas.Workspace.class, AccessSchemas.CreatedWorkspace.class);
            if (openApi.getPaths() == null) {
                return;
            }
            HIDDEN_PATHS.forEach(openApi.getPaths()::remove);
            openApi.getPaths().forEach(OpenApiConfig::describe);
            removeUnreferencedSchemas(openApi);
        };
    }

    private static void addSchemas(Components components, boolean openApi31, Class<?>... types) {
        for (Class<?> type : types) {
            ModelConverters.getInstance(openApi31).readAll(type).forEach(components::addSchemas);
        }
    }

    private static void describe(String path, PathItem item) {
        for (Map.Entry<PathItem.HttpMethod, Operation> entry : item.readOperationsMap().entrySet()) {
            Operation operation = entry.getValue();
            String route = entry.getKey().name() + " " + path;
            OtherOperations other = OtherOperations.BY_ROUTE.get(route);
            if (other != null) {
                describeOther(operation, other);
            }
            if (ApiPaths.isProtected(entry.getKey().name(), path)) {
                operation.setSecurity(List.of(new SecurityRequirement().addList(TOKEN_SCHEME), new SecurityRequirement().addList(BEARER_SCHEME)));
                RouteRoles.leastRoleFor(HttpMethod.valueOf(entry.getKey().name()), path).ifPresent(role -> {
                    operation.addExtension("x-required-role", role.wireName());
                    String needs = "Needs a token with role `" + role.wireName() + "` or above.";
                    operation.setDescription(operation.getDescription() == null ? needs : operation.getDescription() + "\n\n" + needs);
                });
            }
            jsonOnly(operation.getResponses());
            if (operation.getResponses().containsKey("201")) {
                operation.getResponses().remove("200");
            }
            errors(operation, path, entry.getKey());
        }
    }

    private static void describeOther(Operation operation, OtherOperations other) {
        operation.operationId(other.operationId()).summary(other.summary()).tags(List.of(other.tag()));
        if (other.request() != null) {
            operation.requestBody(new RequestBody().required(true).content(json(reference(other.request()))));
        }
        ApiResponses responses = operation.getResponses();
        ApiResponse success = responses.containsKey(other.status()) ? responses.get(other.status()) : new ApiResponse().description("Done");
        if ("200".equals(other.status()) && other.response() == null) {
            return; // an event stream: its controller documents its text/event-stream answer
        }
        responses.remove("200");
        if (other.response() != null) {
            String type = other.response();
            success.content(json(type.startsWith("[") ? new ArraySchema().items(reference(type.substring(1, type.length() - 1))) : reference(type)));
        } else {
            success.content(null);
        }
        responses.addApiResponse(other.status(), success);
    }

    /** Bodies are JSON: springdoc writes {@code *}{@code /*} for handlers that return {@code ResponseEntity<Object>}. */
    private static void jsonOnly(ApiResponses responses) {
        responses.values().forEach(response -> {
            Content content = response.getContent();
            if (content != null && content.containsKey("*/*")) {
                MediaType any = content.remove("*/*");
                if (!content.containsKey(JSON)) {
                    content.addMediaType(JSON, any);
                }
            }
        });
    }

    /**
     * Every error status the operation may answer, with the codes it may carry: the ones every operation of its kind
     * shares, and the ones of {@link ErrorCatalog} for this operation. Described error responses are replaced, so that
     * each points at the one error schema.
     */
    private static void errors(Operation operation, String path, PathItem.HttpMethod method) {
        Map<String, List<String>> codes = new TreeMap<>();
        add(codes, "400", "invalid_request");
        add(codes, "500", "internal");
        if (ApiPaths.isProtected(method.name(), path)) {
            add(codes, "401", "unauthorized");
            add(codes, "403", "forbidden");
            add(codes, "429", "rate_limited");
        }
        if (path.startsWith("/sop/triggers/") || path.startsWith("/sop/webhooks/")) {
            add(codes, "429", "rate_limited");
        }
        if (path.contains("{")) {
            add(codes, "404", "not_found");
        }
        if (path.startsWith("/sop")) {
            add(codes, "503", "unavailable");
        }
        if (method == PathItem.HttpMethod.POST) {
            add(codes, "400", "invalid_payload");
            add(codes, "408", "request_timeout");
            add(codes, "413", "payload_too_large");
            add(codes, "415", "unsupported_media_type");
        }
        if (path.startsWith("/sop") && method == PathItem.HttpMethod.POST) {
            add(codes, "500", "engine_error");
        }
        ErrorCatalog.specificTo(operation.getOperationId()).forEach((status, specific) -> specific.forEach(code -> add(codes, status, code)));
        ApiResponses responses = operation.getResponses();
        new ArrayList<>(responses.keySet()).stream().filter(status -> status.startsWith("4") || status.startsWith("5"))
                .filter(status -> !codes.containsKey(status))
                .forEach(status -> codes.put(status, List.of()));
        codes.forEach((status, list) -> responses.addApiResponse(status, errorResponse(responses.get(status), list)));
    }

    private static void add(Map<String, List<String>> codes, String status, String code) {
        List<String> list = new ArrayList<>(codes.getOrDefault(status, List.of()));
        if (!list.contains(code)) {
            list.add(code);
        }
        codes.put(status, list);
    }

    @SuppressWarnings("rawtypes")
    private static ApiResponse errorResponse(ApiResponse existing, List<String> codes) {
        Map<String, Example> examples = new LinkedHashMap<>();
        StringBuilder description = new StringBuilder();
        for (String code : codes) {
            String meaning = ErrorCatalog.MEANINGS.getOrDefault(code, code);
            Map<String, String> example = new LinkedHashMap<>();
            example.put("error", code);
            example.put("message", meaning);
            examples.put(code, new Example().summary(code).value(example));
            description.append(description.isEmpty() ? "" : "; ").append('`').append(code).append("`: ").append(meaning);
        }
        if (description.isEmpty() && existing != null) {
            description.append(existing.getDescription());
        }
        Schema reference = new Schema().$ref("#/components/schemas/" + ERROR);
        return new ApiResponse().description(description.toString())
                .headers(existing == null ? null : existing.getHeaders())
                .content(new Content().addMediaType(JSON, new MediaType().schema(reference).examples(examples.isEmpty() ? null : examples)));
    }

    @SuppressWarnings("rawtypes")
    private static Schema reference(String name) {
        return new Schema().$ref("#/components/schemas/" + name);
    }

    @SuppressWarnings("rawtypes")
    private static Content json(Schema schema) {
        return new Content().addMediaType(JSON, new MediaType().schema(schema));
    }

    /**
     * Schemas springdoc derived from handler signatures the document no longer uses (the engine's own records, with
     * their Java names): a generator would make classes of them that match no body.
     */
    private static void removeUnreferencedSchemas(OpenAPI openApi) {
        Map<String, Schema> schemas = openApi.getComponents().getSchemas();
        if (schemas == null) {
            return;
        }
        Set<String> used = new HashSet<>(references(Json.pretty(openApi.getPaths())));
        boolean grew = true;
        while (grew) {
            Set<String> more = new HashSet<>();
            used.stream().filter(schemas::containsKey).forEach(name -> more.addAll(references(Json.pretty(schemas.get(name)))));
            grew = used.addAll(more);
        }
        schemas.keySet().removeIf(name -> !used.contains(name));
    }

    private static Set<String> references(String json) {
        Set<String> names = new HashSet<>();
        Matcher matcher = REFERENCE.matcher(json);
        while (matcher.find()) {
            names.add(matcher.group(1));
        }
        return names;
    }
}
