package dev.sopline.schemas.event;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.f4b6a3.ulid.Ulid;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class HashedUlidsTest {

    @Test
    void shouldGiveTheTimeAndTheHashOfTheTextEveryTimeItIsAsked() throws Exception {
        long millis = 1_764_000_000_000L;
        byte[] hash = MessageDigest.getInstance("SHA-256").digest("inst-1\n0\n42\n3".getBytes(StandardCharsets.UTF_8));
        String expected = new Ulid(millis, Arrays.copyOf(hash, 10)).toString();

        // The digest is reused: a text hashed in between must not leak into the next id.
        assertThat(HashedUlids.of(millis, "inst-1\n0\n42\n3")).isEqualTo(expected);
        assertThat(HashedUlids.of(millis, "inst-2\n0\n42\n3")).isNotEqualTo(expected);
        assertThat(HashedUlids.of(millis, "inst-1\n0\n42\n3")).isEqualTo(expected);
        assertThat(Ulid.from(expected).getTime()).isEqualTo(millis);
    }
}
