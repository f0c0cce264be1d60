package dev.sopline.schemas.json;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import tools.jackson.core.TokenStreamFactory;
import tools.jackson.core.util.BufferRecycler;

/** The project's mapper keeps its buffers per thread, not in one pool every thread takes from and gives back to. */
class JsonBuffersTest {

    @Test
    void shouldHandEachThreadItsOwnBuffersAgainAndAgain() throws Exception {
        TokenStreamFactory factory = Json.mapper().tokenStreamFactory();
        BufferRecycler first = factory._getBufferRecycler();
        BufferRecycler again = factory._getBufferRecycler();
        BufferRecycler elsewhere = CompletableFuture.supplyAsync(factory::_getBufferRecycler).get();

        // A shared pool hands out a new recycler for each one taken and not given back, and may give any thread any one.
        assertThat(again).isSameAs(first);
        assertThat(elsewhere).isNotSameAs(first);
    }

    @Test
    void shouldWriteAndReadAsBeforeWithBuffersKeptPerThread() {
        byte[] written = Json.mapper().writeValueAsBytes(Map.of("step_id", "review", "attempt", 2));

        assertThat(Json.mapper().readValue(written, Map.class)).containsEntry("step_id", "review").containsEntry("attempt", 2);
    }
}
