package dev.sopline.gateway.auth;

import java.util.Optional;

/** Where trigger secrets come from: the environment variable a definition names in {@code auth.secret_env}. */
@FunctionalInterface
public interface TriggerSecrets {

    Optional<String> secret(String variable);

    static TriggerSecrets environment() {
        return variable -> Optional.ofNullable(System.getenv(variable)).filter(value -> !value.isEmpty());
    }
}
