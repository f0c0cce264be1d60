package dev.sopline.gateway.health;

import dev.sopline.gateway.auth.TokenRegistry;
import dev.sopline.gateway.command.CommandBus;
import dev.sopline.gateway.stream.EventStream;
import dev.sopline.gateway.webhook.WebhookDispatcher;
import dev.sopline.gateway.webhook.WebhookRegistry;
import dev.sopline.gateway.workspace.WorkspaceRegistry;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

/**
 * DOWN while any of the gateway's background readers is not working (CONTRACT section 8): the replies every write
 * waits for, the events behind live streams, the webhook deliveries, and the token, webhook and workspace tables. Each of them
 * recovers by itself; this says when the platform cannot serve in the meantime.
 */
@Component("readers")
public class BackgroundReadersHealthIndicator implements HealthIndicator {

    private final Map<String, BooleanSupplier> readers = new LinkedHashMap<>();

    public BackgroundReadersHealthIndicator(CommandBus commands, EventStream events, WebhookDispatcher webhooks, TokenRegistry tokens,
                                            WebhookRegistry subscriptions, WorkspaceRegistry workspaces) {
        readers.put("replies", commands::isHealthy);
        readers.put("events", events::isHealthy);
        readers.put("webhook_deliveries", webhooks::isHealthy);
        readers.put("tokens", tokens::isHealthy);
        readers.put("webhook_subscriptions", subscriptions::isHealthy);
        readers.put("workspaces", workspaces::isHealthy);
    }

    @Override
    public Health health() {
        Map<String, Object> states = new LinkedHashMap<>();
        boolean allWorking = true;
        for (Map.Entry<String, BooleanSupplier> reader : readers.entrySet()) {
            boolean working = reader.getValue().getAsBoolean();
            states.put(reader.getKey(), working ? "UP" : "DOWN");
            allWorking &= working;
        }
        return (allWorking ? Health.up() : Health.down()).withDetails(states).build();
    }
}
