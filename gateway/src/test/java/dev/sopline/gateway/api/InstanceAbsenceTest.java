package dev.sopline.gateway.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.f4b6a3.ulid.UlidCreator;
import dev.sopline.gateway.command.EngineUnavailableException;
import dev.sopline.gateway.web.ApiException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;

class InstanceAbsenceTest {

    @Test
    void shouldAskToRetryForAnIdMintedMomentsAgoAndAnswer404ForOlderOrMalformedOnes() {
        String fresh = UlidCreator.getMonotonicUlid().toString();
        String old = UlidCreator.getUlid(Instant.now().minus(2, ChronoUnit.MINUTES).toEpochMilli()).toString();

        assertThat(InstanceAbsence.of("review", fresh)).isInstanceOf(EngineUnavailableException.class);
        assertThat(InstanceAbsence.of("review", old)).isInstanceOfSatisfying(ApiException.class,
                refusal -> assertThat(refusal.status()).isEqualTo(404));
        assertThat(InstanceAbsence.of("review", "not-a-ulid")).isInstanceOfSatisfying(ApiException.class,
                refusal -> assertThat(refusal.status()).isEqualTo(404));
    }

    @Test
    void shouldAnswer404ForAnIdStampedLaterThanAnyGatewayCouldHaveMintedIt() {
        String future = UlidCreator.getUlid(Instant.now().plus(10, ChronoUnit.MINUTES).toEpochMilli()).toString();

        assertThat(InstanceAbsence.of("review", future)).isInstanceOfSatisfying(ApiException.class,
                refusal -> assertThat(refusal.status()).isEqualTo(404));
        assertThat(InstanceAbsence.of("review", "7ZZZZZZZZZZZZZZZZZZZZZZZZZ")).isInstanceOfSatisfying(ApiException.class,
                refusal -> assertThat(refusal.status()).isEqualTo(404));
    }
}
