package dev.sopline.gateway.config;

import dev.sopline.gateway.security.ApiPaths;
import dev.sopline.gateway.security.RouteRoles;
import org.springframework.http.HttpMethod;
import dev.sopline.gateway.web.ErrorBody;
import io.swagger.v3.core.converter.ModelConverters;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.parameters.RequestBody;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import java.util.Map;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Completes the generated document at {@code /openapi.json} with what the controllers' signatures cannot say: the
 * token header, the error body every failure shares, the errors each kind of operation answers, and the JSON bodies
 * the controllers read themselves (to give the contract's errors for malformed ones).
 */
@Configuration(proxyBeanMethods = false)
public class OpenApiConfig {

    private static final String ERROR = "Error";
    private static final String TOKEN = "token";

    @Bean
    OpenApiCustomizer sopOpenApi() {
        return openApi -> {
            openApi.info(new Info().title("Sopline API").version("0.1")
                    .description("Register processes, start instances, resolve steps. Every error is {\"error\": <code>, ...}."));
            Components components = openApi.getComponents() == null ? new Components() : openApi.getComponents();
            components.addSecuritySchemes(TOKEN, new SecurityScheme().type(SecurityScheme.Type.APIKEY).in(SecurityScheme.In.HEADER)
                    .name(ApiPaths.TOKEN_HEADER));
            ModelConverters.getInstance().readAll(ErrorBody.class).forEach(components::addSchemas);
            components.addSchemas(ERROR, ModelConverters.getInstance().read(ErrorBody.class).get("ErrorBody"));
            openApi.setComponents(components);
            if (openApi.getPaths() == null) {
                return;
            }
            openApi.getPaths().forEach((path, item) -> describe(path, item));
        };
    }

    private static void describe(String path, PathItem item) {
        boolean protectedPath = ApiPaths.isProtected(path);
        for (Map.Entry<PathItem.HttpMethod, Operation> entry : item.readOperationsMap().entrySet()) {
            Operation operation = entry.getValue();
            if (protectedPath) {
                operation.addSecurityItem(new SecurityRequirement().addList(TOKEN));
                RouteRoles.leastRoleFor(HttpMethod.valueOf(entry.getKey().name()), path).ifPresent(role -> {
                    operation.addExtension("x-required-role", role.wireName());
                    String needs = "Needs a token with role `" + role.wireName() + "` or above.";
                    operation.setDescription(operation.getDescription() == null ? needs : operation.getDescription() + "\n\n" + needs);
                });
                error(operation, "401", "unauthorized: token missing, malformed or revoked");
                error(operation, "403", "forbidden: the token's role does not allow this call");
                error(operation, "429", "rate_limited: see Retry-After");
            }
            error(operation, "400", "invalid_payload or invalid_parameter");
            error(operation, "404", "not_found");
            if (entry.getKey() == PathItem.HttpMethod.POST) {
                error(operation, "413", "payload_too_large");
                error(operation, "422", "invalid_inputs, invalid_outputs, invalid_definition, invalid_transition, idempotency_key_reused");
                error(operation, "503", "unavailable: the engine did not answer in time; see Retry-After");
                if (path.contains("/webhooks/")) {
                    error(operation, "409", "callback_already_resolved");
                }
                if (path.startsWith("/sop/triggers")) {
                    error(operation, "401", "invalid_signature");
                    error(operation, "500", "trigger_misconfigured: the secret's environment variable is unset");
                }
                if (operation.getRequestBody() != null && !path.endsWith("/register")) {
                    operation.setRequestBody(new RequestBody().required(!path.endsWith("/cancel")).content(new Content()
                            .addMediaType("application/json", new MediaType().schema(new ObjectSchema()
                                    .description(bodyOf(path))))));
                }
            }
        }
    }

    private static String bodyOf(String path) {
        if (path.endsWith("/start")) {
            return "{\"inputs\": {<input name>: <value>}}";
        }
        if (path.endsWith("/submit")) {
            return "{\"outputs\": {<output name>: <value>}} or, from an HTTP worker, {\"error\": {\"code\", \"message\"}}";
        }
        return "JSON object";
    }

    @SuppressWarnings("rawtypes")
    private static void error(Operation operation, String status, String description) {
        if (operation.getResponses() != null && operation.getResponses().containsKey(status)) {
            return;
        }
        Schema reference = new Schema().$ref("#/components/schemas/" + ERROR);
        operation.getResponses().addApiResponse(status, new ApiResponse().description(description)
                .content(new Content().addMediaType("application/json", new MediaType().schema(reference))));
    }

}
