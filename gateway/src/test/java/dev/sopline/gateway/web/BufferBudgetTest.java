package dev.sopline.gateway.web;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The bytes of bodies being read: a limit for all, and an eighth of it for any one client. */
class BufferBudgetTest {

    private final BufferBudget budget = new BufferBudget(800);

    @Test
    void shouldKeepEachClientToItsShare() {
        BufferBudget.Share one = budget.of("192.0.2.1");

        assertThat(one.reserve(60)).isTrue();
        assertThat(one.reserve(41)).as("past its 100").isFalse();
        assertThat(one.reserve(40)).isTrue();
        assertThat(budget.of("192.0.2.2").reserve(100)).as("another client has a share of its own").isTrue();
        assertThat(budget.usedBy("192.0.2.1")).isEqualTo(100);
        assertThat(budget.used()).isEqualTo(200);
    }

    @Test
    void shouldKeepEveryClientToTheWholeBudget() {
        for (int client = 0; client < 8; client++) {
            assertThat(budget.of("192.0.2." + client).reserve(100)).isTrue();
        }

        assertThat(budget.of("192.0.2.9").reserve(1)).as("the whole budget is taken").isFalse();
        assertThat(budget.usedBy("192.0.2.9")).as("nothing kept for a refused reserve").isZero();
    }

    @Test
    void shouldGiveBytesBackAndForgetAClientThatHoldsNone() {
        BufferBudget.Share one = budget.of("192.0.2.1");
        one.reserve(100);

        one.release(100);

        assertThat(budget.used()).isZero();
        assertThat(budget.usedBy("192.0.2.1")).isZero();
        assertThat(one.reserve(100)).as("its share is whole again").isTrue();
    }
}
