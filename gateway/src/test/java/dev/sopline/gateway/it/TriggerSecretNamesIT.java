package dev.sopline.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.testing.SopApi;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A webhook trigger may not be signed with the platform's settings or a guessable variable (CONTRACT section 8). */
class TriggerSecretNamesIT extends GatewayTestBase {

    @Test
    void shouldRefuseToRegisterATriggerSignedWithAReservedVariable() {
        for (String variable : List.of("HOME", "SOP_BOOTSTRAP_TOKEN", "kafka_bootstrap_servers", "PATH")) {
            String yaml = GatewayApiIT.ONBOARDING.replace("name: onboarding", "name: reserved-secret").replace("ONBOARDING_SECRET", variable);

            SopApi.Response response = api().register(yaml);

            assertThat(response.status()).as(variable).isEqualTo(422);
            assertThat(response.json().path("error").asString()).isEqualTo("invalid_definition");
            assertThat(response.json().path("details").get(0).path("code").asString()).isEqualTo("forbidden_secret_env");
            assertThat(response.json().path("details").get(0).path("field").asString()).isEqualTo("process.trigger.auth.secret_env");
        }
        assertThat(api().get("/sop/reserved-secret/schema").status()).isEqualTo(404);
    }
}
