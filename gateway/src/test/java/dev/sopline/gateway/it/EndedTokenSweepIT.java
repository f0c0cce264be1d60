package dev.sopline.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.gateway.auth.EndedTokenSweep;
import dev.sopline.gateway.auth.Role;
import dev.sopline.gateway.auth.TokenRecord;
import dev.sopline.gateway.it.WorkspaceIsolationIT.Workspace;
import dev.sopline.testing.SopApi;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** Tokens revoked or expired more than a day ago are forgotten, and refused as before; bootstrap tokens are kept. */
class EndedTokenSweepIT extends GatewayTestBase {

    @Autowired
    EndedTokenSweep sweep;

    @Test
    void shouldForgetTokensEndedMoreThanADayAgoAndStillRefuseThem() {
        Workspace workspace = WorkspaceIsolationIT.createWorkspace(this, "sweep");
        SopApi admin = workspace.admin();
        SopApi.Response kept = admin.post("/workspace/tokens", Map.of("name", "kept"));
        SopApi.Response revoked = admin.post("/workspace/tokens", Map.of("name", "revoked"));
        String keptId = kept.json().path("id").asString();
        String revokedId = revoked.json().path("id").asString();
        assertThat(admin.delete("/workspace/tokens/" + revokedId).status()).isEqualTo(204);
        Instant now = Instant.now();
        TokenRecord expired = new TokenRecord("tok_" + "e".repeat(22) + keptId.substring(keptId.length() - 4), workspace.name(), "expired",
                "0".repeat(64), now.minus(Duration.ofDays(3)), now.minus(Duration.ofDays(2)), null, Role.OPERATOR);
        TokenRecord revokedBootstrap = new TokenRecord("tok_" + "b".repeat(22) + keptId.substring(keptId.length() - 4), "default",
                "bootstrap", "1".repeat(64), now.minus(Duration.ofDays(3)), null, now.minus(Duration.ofDays(2)), Role.ADMIN);
        tokens.save(expired);
        tokens.save(revokedBootstrap);

        assertThat(sweep.sweep(now)).as("nothing ended more than a day before now but the expired one").isEqualTo(1);
        assertThat(tokens.find(workspace.name(), expired.id())).isEmpty();
        assertThat(tokens.find(workspace.name(), revokedId)).isPresent();

        assertThat(sweep.sweep(now.plus(Duration.ofDays(2)))).isGreaterThanOrEqualTo(1);

        assertThat(tokens.find(workspace.name(), revokedId)).isEmpty();
        assertThat(tokens.find(workspace.name(), keptId)).isPresent();
        assertThat(tokens.find("default", revokedBootstrap.id())).isPresent();
        assertThat(api().withToken(revoked.json().path("token").asString()).get("/sop/").status()).isEqualTo(401);
        assertThat(api().withToken(kept.json().path("token").asString()).get("/sop/").status()).isEqualTo(200);
        assertThat(admin.delete("/workspace/tokens/" + revokedId).status()).isEqualTo(404);
    }
}
