package dev.sopline.schemas.json;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/** The project's instants read and write as Jackson's own do, only without {@code DateTimeFormatter}. */
class IsoInstantsTest {

    /** Jackson's mapping without the module: what the project wrote and read before. */
    private static final JsonMapper JACKSON = JsonMapper.builder().build();

    private static final long YEAR_0 = Instant.parse("0000-01-01T00:00:00Z").getEpochSecond();
    private static final long YEAR_9999_END = Instant.parse("9999-12-31T23:59:59Z").getEpochSecond();

    record Stamped(Instant at) {}

    /**
     * 20,000 random instants from year 0 to 9999, from a fixed seed so that a failure can be run again. Whole seconds,
     * tenths, milliseconds, microseconds and nanoseconds in turn: each length of fraction takes its own path.
     */
    private static List<Instant> randomInstants(long seed) {
        Random random = new Random(seed);
        List<Instant> instants = new ArrayList<>();
        for (int sample = 0; sample < 20_000; sample++) {
            long seconds = YEAR_0 + (long) (random.nextDouble() * (YEAR_9999_END - YEAR_0));
            int nanos = random.nextInt(1_000_000_000);
            int fraction = switch (sample % 5) {
                case 0 -> 0;
                case 1 -> nanos / 100_000_000 * 100_000_000;
                case 2 -> nanos / 1_000_000 * 1_000_000;
                case 3 -> nanos / 1_000 * 1_000;
                default -> nanos;
            };
            instants.add(Instant.ofEpochSecond(seconds, fraction));
        }
        return instants;
    }

    @Test
    void shouldWriteTheTextJacksonWritesAndReadItBack() {
        for (Instant instant : randomInstants(20261126L)) {
            String written = Json.mapper().writeValueAsString(new Stamped(instant));

            assertThat(written).isEqualTo(JACKSON.writeValueAsString(new Stamped(instant)));
            assertThat(Json.mapper().readValue(written, Stamped.class).at()).isEqualTo(instant);
        }
    }

    /** An event's {@code time}, as the CloudEvents SDK writes it, and {@link Instant#toString()}, over random instants. */
    @Test
    void shouldWriteTheTextOfTheJdksFormattersForEventsAndRecords() {
        for (Instant instant : randomInstants(20261130L)) {
            assertThat(IsoInstants.formatAsOffsetDateTime(instant))
                    .isEqualTo(DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(instant.atOffset(ZoneOffset.UTC)));
            assertThat(IsoInstants.format(instant)).isEqualTo(instant.toString());
        }
        Instant pastYear9999 = Instant.parse("+10000-01-01T00:00:00.5Z");
        assertThat(IsoInstants.format(pastYear9999)).isEqualTo(pastYear9999.toString());
        assertThat(IsoInstants.formatAsOffsetDateTime(pastYear9999))
                .isEqualTo(DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(pastYear9999.atOffset(ZoneOffset.UTC)));
    }

    /** Other offsets, short fractions, long years, impossible dates: whatever Jackson made of them, this makes too. */
    @Test
    void shouldReadOrRefuseWhatJacksonReadsOrRefuses() {
        for (String text : List.of("2026-03-02T09:00:00+01:00", "2026-03-02T08:00:00.5Z", "+12026-03-02T08:00:00Z", "2024-02-29T23:59:59Z",
                "2026-03-02T08:00:00.1234567891Z", "2026-02-30T08:00:00Z", "2026-03-02T24:00:00Z", "2026-03-02 08:00:00Z",
                "2026-03-02t08:00:00z", "yesterday", "")) {
            String json = "{\"at\":\"" + text + "\"}";
            assertThat(outcome(Json.mapper(), json)).as(text).isEqualTo(outcome(JACKSON, json));
        }
        assertThat(Json.mapper().readValue("{\"at\":1772438400.5}", Stamped.class).at()).isEqualTo(Instant.parse("2026-03-02T08:00:00.500Z"));
    }

    private static Object outcome(JsonMapper mapper, String json) {
        try {
            return mapper.readValue(json, Stamped.class).at();
        } catch (tools.jackson.core.JacksonException e) {
            return "refused";
        }
    }

    @Test
    void shouldLeaveTimestampsInsideUntypedValuesAsText() {
        Map<String, Object> read = Json.mapper().readValue(Json.mapper().writeValueAsBytes(Map.of("at", Instant.parse("2026-03-02T08:00:00Z"))),
                new TypeReference<Map<String, Object>>() {});

        assertThat(read).containsEntry("at", "2026-03-02T08:00:00Z");
    }
}
