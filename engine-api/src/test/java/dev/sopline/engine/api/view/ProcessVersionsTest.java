package dev.sopline.engine.api.view;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Versions are ordered as numbers, part by part, and the order is total: any listing of them has one latest. */
class ProcessVersionsTest {

    @Test
    void shouldOrderVersionsAsNumbersPartByPart() {
        assertThat(ProcessVersions.VERSION_ORDER.compare("1.10", "1.9")).isPositive();
        assertThat(ProcessVersions.VERSION_ORDER.compare("2.0", "1.99.99")).isPositive();
        assertThat(ProcessVersions.VERSION_ORDER.compare("1.0.1", "1.0")).isPositive();
    }

    @Test
    void shouldPickTheSameLatestWhateverOrderEqualNumbersAreListedIn() {
        List<String> versions = new ArrayList<>(List.of("1.0", "1.0.0", "01.0", "0.9"));
        for (int shuffle = 0; shuffle < 20; shuffle++) {
            Collections.shuffle(versions);
            assertThat(versions.stream().max(ProcessVersions.VERSION_ORDER)).as(versions.toString()).contains("1.0.0");
        }
        assertThat(ProcessVersions.sameNumber("1.0", "1.0.0")).isTrue();
        assertThat(ProcessVersions.sameNumber("01.0", "1.0")).isTrue();
        assertThat(ProcessVersions.sameNumber("1.0", "1.0.1")).isFalse();
    }
}
