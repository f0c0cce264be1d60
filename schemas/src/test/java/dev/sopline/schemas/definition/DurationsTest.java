package dev.sopline.schemas.definition;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class DurationsTest {

    @Test
    void shouldReadEachUnitWhenTextIsWellFormed() {
        assertThat(Durations.parse("30s")).contains(Duration.ofSeconds(30));
        assertThat(Durations.parse("15m")).contains(Duration.ofMinutes(15));
        assertThat(Durations.parse("4h")).contains(Duration.ofHours(4));
        assertThat(Durations.parse("7d")).contains(Duration.ofDays(7));
    }

    @Test
    void shouldRefuseWhenTextIsNotAWholeNumberWithAUnit() {
        for (String bad : Arrays.asList("0s", "10", "5w", "-1s", "1.5h", "h", "", "1 h", "01s", null)) {
            assertThat(Durations.parse(bad)).as(String.valueOf(bad)).isEmpty();
        }
    }
}
