package dev.sopline.gateway.auth;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TriggerSecretsTest {

    @Test
    void shouldNotReadThePlatformsSettingsOrTheEnvironmentBasicsAsTriggerSecrets() {
        TriggerSecrets environment = TriggerSecrets.environment();
        // PATH and HOME are set in every test JVM: a process registered before the rule must not sign with them.
        assertThat(System.getenv("PATH")).isNotEmpty();
        assertThat(environment.secret("PATH")).isEmpty();
        assertThat(environment.secret("home")).isEmpty();
        assertThat(environment.secret("SOP_BOOTSTRAP_TOKEN")).isEmpty();
    }
}
