package dev.sopline.schemas.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A process restarted on its data directory is the same group member; another directory is another member. */
class StableMemberIdTest {

    @TempDir
    Path dataDirs;

    @Test
    void shouldKeepOneIdPerFileAcrossRestarts() {
        Path file = dataDirs.resolve("one").resolve("judgment-member-id");

        String first = StableMemberId.keptIn(file, "sop-judgment");

        assertThat(first).startsWith("sop-judgment-");
        assertThat(StableMemberId.keptIn(file, "sop-judgment")).as("the same process, restarted").isEqualTo(first);
        assertThat(StableMemberId.keptIn(dataDirs.resolve("two").resolve("judgment-member-id"), "sop-judgment"))
                .as("another process").isNotEqualTo(first);
    }

    @Test
    void shouldWriteANewIdWhereTheFileIsBlank() throws Exception {
        Path file = Files.writeString(dataDirs.resolve("member-id"), "  \n");

        String id = StableMemberId.keptIn(file, "sop-webhooks");

        assertThat(id).startsWith("sop-webhooks-");
        assertThat(Files.readString(file)).isEqualTo(id);
    }
}
