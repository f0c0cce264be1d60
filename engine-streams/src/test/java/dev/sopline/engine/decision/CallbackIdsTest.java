package dev.sopline.engine.decision;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.f4b6a3.ulid.Ulid;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** A replay mints the same callback id again; without the secret, nobody can work one out. */
class CallbackIdsTest {

    private static final byte[] SECRET = "one engine secret, 32 bytes long".getBytes(StandardCharsets.UTF_8);
    private final CallbackIds ids = new CallbackIds(SECRET);

    @Test
    void shouldMintTheSameIdForTheSameStepAttempt() {
        assertThat(ids.of("default", "01JA", "verify", 1)).isEqualTo(new CallbackIds(SECRET).of("default", "01JA", "verify", 1));
    }

    @Test
    void shouldLookLikeAUlid() {
        String id = ids.of("default", "01JA", "verify", 1);

        assertThat(id).hasSize(26).matches("[0-9A-HJKMNP-TV-Z]{26}");
        assertThat(Ulid.isValid(id)).isTrue();
    }

    @Test
    void shouldMintAnotherIdForAnyOtherWorkspaceInstanceStepAttemptOrSecret() {
        String id = ids.of("default", "01JA", "verify", 1);

        assertThat(ids.of("other", "01JA", "verify", 1)).isNotEqualTo(id);
        assertThat(ids.of("default", "01JB", "verify", 1)).isNotEqualTo(id);
        assertThat(ids.of("default", "01JA", "check", 1)).isNotEqualTo(id);
        assertThat(ids.of("default", "01JA", "verify", 2)).isNotEqualTo(id);
        assertThat(ids.of("default/01JA", "", "verify", 1)).as("fields cannot run into each other").isNotEqualTo(id);
        assertThat(new CallbackIds("another secret, also 32 bytes ok".getBytes(StandardCharsets.UTF_8)).of("default", "01JA", "verify", 1))
                .isNotEqualTo(id);
    }

    @Test
    void shouldRefuseAShortSecretAndNeverShowIt() {
        assertThatThrownBy(() -> new CallbackIds(new byte[8])).isInstanceOf(IllegalArgumentException.class);
        assertThat(ids.toString()).doesNotContain(new String(SECRET, StandardCharsets.UTF_8));
    }

    @Test
    void shouldMintTheSameIdsFromManyThreadsAtOnce() throws Exception {
        List<String> expected = IntStream.range(0, 2_000).mapToObj(attempt -> ids.of("default", "01JA", "verify", attempt)).toList();
        CallbackIds shared = new CallbackIds(SECRET);
        ExecutorService threads = Executors.newFixedThreadPool(8);
        try {
            List<Future<List<String>>> minted = new ArrayList<>();
            for (int thread = 0; thread < 8; thread++) {
                minted.add(threads.submit(() -> IntStream.range(0, 2_000).mapToObj(attempt -> {
                    shared.resultKey("default", "01JA", "verify", attempt); // another hash in between, under the same key
                    return shared.of("default", "01JA", "verify", attempt);
                }).toList()));
            }
            for (Future<List<String>> each : minted) {
                assertThat(each.get(30, TimeUnit.SECONDS)).isEqualTo(expected);
            }
        } finally {
            threads.shutdownNow();
        }
    }
}
