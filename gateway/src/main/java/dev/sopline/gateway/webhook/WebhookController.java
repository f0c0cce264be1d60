package dev.sopline.gateway.webhook;

import com.github.f4b6a3.ulid.UlidCreator;
import dev.sopline.gateway.api.RequestScope;
import dev.sopline.gateway.auth.TokenHashing;
import dev.sopline.gateway.web.ApiException;
import dev.sopline.gateway.web.JsonBodies;
import dev.sopline.gateway.workspace.WorkspaceLocks;
import dev.sopline.schemas.command.ErrorCodes;
import dev.sopline.schemas.validation.Violation;
import dev.sopline.schemas.validation.ViolationCode;
import jakarta.servlet.http.HttpServletRequest;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

/**
 * Outbound {@code state_changed} webhooks (CONTRACT section 6). The secret is shown when the subscription is created
 * (generated when the request gives none) and never listed. A URL that is not http(s), or whose host has an address
 * deliveries may not go to ({@link WebhookDestinationPolicy}), is refused with 422 {@code invalid_webhook_url}.
 */
@RestController
public class WebhookController {

    static final String STATE_CHANGED = "state_changed";
    static final String INVALID_WEBHOOK_URL = "invalid_webhook_url";
    /** The {@code details} code of a URL whose host has an address deliveries may not go to. */
    static final String FORBIDDEN_DESTINATION = "forbidden_destination";
    /** The {@code details} code of a URL whose host does not resolve, so its addresses cannot be checked. */
    static final String UNRESOLVED_HOST = "unresolved_host";
    /**
     * Every state change of a workspace goes to each of its subscriptions, so their number multiplies its deliveries;
     * GitHub allows 20 hooks per event too.
     */
    static final int MAX_PER_WORKSPACE = 20;
    /** Far past any real endpoint; bounds the stored record, read whole by every replica. */
    static final int MAX_URL_LENGTH = 2048;
    /** Longer keys add nothing to HMAC-SHA256 (they are hashed to 32 bytes first). */
    static final int MAX_SECRET_LENGTH = 256;

    private final WebhookRegistry registry;
    private final RequestScope scope;
    private final WebhookDestinationPolicy destinations;
    private final WorkspaceLocks locks;

    public WebhookController(WebhookRegistry registry, RequestScope scope, WebhookDestinationPolicy destinations, WorkspaceLocks locks) {
        this.registry = registry;
        this.scope = scope;
        this.destinations = destinations;
        this.locks = locks;
    }

    @PostMapping("/workspace/webhooks")
    public ResponseEntity<Map<String, Object>> create(@RequestBody(required = false) byte[] body, HttpServletRequest request) {
        JsonNode json = JsonBodies.object(body);
        String url = json.path("url").asString("");
        if (!isHttpUrl(url)) {
            throw invalidUrl(ViolationCode.INVALID_TYPE, "Expected 'url' to be an absolute http or https URL");
        }
        if (url.length() > MAX_URL_LENGTH) {
            throw invalidUrl(ViolationCode.TOO_LARGE, "Expected 'url' to be at most " + MAX_URL_LENGTH + " characters");
        }
        JsonNode events = json.get("events");
        if (events != null && (!events.isArray() || events.size() != 1 || !events.get(0).isString() || !STATE_CHANGED.equals(events.get(0).asString()))) {
            throw invalid("events", "Expected 'events' to be [\"state_changed\"], the one event kind there is");
        }
        JsonNode givenSecret = json.get("secret");
        if (givenSecret != null && (!givenSecret.isString() || givenSecret.asString().length() < 16
                || givenSecret.asString().length() > MAX_SECRET_LENGTH)) {
            throw invalid("secret", "Expected 'secret' to be a text of 16 to " + MAX_SECRET_LENGTH + " characters");
        }
        // Resolved before the count is taken: a host whose DNS answers slowly must not hold the workspace's lock.
        checkDestination(URI.create(url));
        String workspace = scope.workspace(request);
        String secret = givenSecret == null ? TokenHashing.newSecret() : givenSecret.asString();
        WebhookSubscription subscription = new WebhookSubscription("whk_" + UlidCreator.getMonotonicUlid().toString().toLowerCase(Locale.ROOT),
                workspace, url, List.of(STATE_CHANGED), secret, Instant.now());
        locks.exclusively(workspace, () -> {
            if (registry.of(workspace).size() >= MAX_PER_WORKSPACE) {
                String message = "Expected at most " + MAX_PER_WORKSPACE + " webhooks in a workspace; delete one first";
                throw new ApiException(422, "invalid_request", message, List.of(Violation.of("workspace", ViolationCode.LIMIT_REACHED, message)));
            }
            registry.save(subscription);
            return subscription;
        });
        Map<String, Object> created = view(subscription);
        created.put("secret", secret);
        return ResponseEntity.status(201).body(created);
    }

    @GetMapping("/workspace/webhooks")
    public List<Map<String, Object>> list(HttpServletRequest request) {
        return registry.of(scope.workspace(request)).stream().map(WebhookController::view).toList();
    }

    @DeleteMapping("/workspace/webhooks/{id}")
    public ResponseEntity<Void> delete(@PathVariable String id, HttpServletRequest request) {
        registry.find(scope.workspace(request), id)
                .orElseThrow(() -> new ApiException(404, ErrorCodes.NOT_FOUND, "Expected a webhook with id '%s', but there is none".formatted(id)));
        registry.delete(id);
        return ResponseEntity.noContent().build();
    }

    private static Map<String, Object> view(WebhookSubscription subscription) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("id", subscription.id());
        view.put("url", subscription.url());
        view.put("events", subscription.events());
        view.put("created_at", subscription.createdAt().toString());
        return view;
    }

    private static boolean isHttpUrl(String url) {
        try {
            URI uri = URI.create(url);
            return uri.getHost() != null && ("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()));
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private void checkDestination(URI url) {
        try {
            destinations.check(url);
        } catch (ForbiddenDestinationException e) {
            throw invalidUrl(FORBIDDEN_DESTINATION, e.getMessage());
        } catch (UnknownHostException e) {
            throw invalidUrl(UNRESOLVED_HOST,
                    "Expected the webhook host '%s' to resolve, so its addresses can be checked, but it does not".formatted(url.getHost()));
        }
    }

    private static ApiException invalidUrl(String code, String message) {
        return new ApiException(422, INVALID_WEBHOOK_URL, message, List.of(Violation.of("url", code, message)));
    }

    private static ApiException invalid(String field, String message) {
        return new ApiException(422, "invalid_request", message, List.of(Violation.of(field, ViolationCode.INVALID_TYPE, message)));
    }
}
