package dev.sopline.engine.api.query;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.schemas.json.Json;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.core.type.TypeReference;

/** How a page travels between replicas: the stale mark only when set, and a page without it read as fresh. */
class PageJsonTest {

    private static final TypeReference<Page<String>> PAGE = new TypeReference<>() {};

    @Test
    void shouldLeaveTheStaleMarkOutOfAFreshPageAndReadItsAbsenceAsFresh() {
        String json = Json.mapper().writeValueAsString(new Page<>(List.of("a"), "a"));

        assertThat(json).isEqualTo("{\"items\":[\"a\"],\"next_cursor\":\"a\"}");
        assertThat(Json.mapper().readValue(json, PAGE).stale()).isFalse();
    }

    @Test
    void shouldCarryTheStaleMarkAndKeepItWhenMerged() {
        String json = Json.mapper().writeValueAsString(new Page<>(List.of("b"), null).markedStale(true));
        Page<String> stale = Json.mapper().readValue(json, PAGE);

        Page<String> merged = Page.merge(List.of(new Page<>(List.of("a"), null), stale), String::compareTo, 10, item -> item);

        assertThat(json).contains("\"stale\":true");
        assertThat(merged.items()).containsExactly("a", "b");
        assertThat(merged.stale()).isTrue();
    }
}
