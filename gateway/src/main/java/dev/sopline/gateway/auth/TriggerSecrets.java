package dev.sopline.gateway.auth;

import dev.sopline.schemas.definition.validation.ReservedEnvironmentNames;
import java.util.Optional;

/** Where trigger secrets come from: the environment variable a definition names in {@code auth.secret_env}. */
@FunctionalInterface
public interface TriggerSecrets {

    Optional<String> secret(String variable);

    /**
     * The process environment, never the platform's own settings or the environment basics: registration refuses
     * those names ({@code forbidden_secret_env}), and a process registered before that rule existed finds no secret
     * under them, so its trigger answers {@code trigger_misconfigured} instead of trusting a guessable value.
     */
    static TriggerSecrets environment() {
        return variable -> ReservedEnvironmentNames.isReserved(variable)
                ? Optional.empty()
                : Optional.ofNullable(System.getenv(variable)).filter(value -> !value.isEmpty());
    }
}
