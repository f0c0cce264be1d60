package dev.sopline.schemas.json;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.LocalDate;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.ValueSerializer;
import tools.jackson.databind.ext.javatime.deser.InstantDeserializer;
import tools.jackson.databind.module.SimpleModule;

/**
 * Instants as ISO-8601 UTC text ({@code 2026-03-02T08:00:00.123Z}), the same text Jackson writes and reads, only
 * cheaper: Jackson goes through {@code DateTimeFormatter} for each one, about a microsecond per timestamp, and an
 * instance record holds a dozen of them, so on the engine's stream thread that was more than half of reading an
 * instance. This reads and writes the one shape the project produces by hand and hands anything else (another offset,
 * a number, a year past 9999) to Jackson's own deserializer, so what was accepted before still is.
 */
public final class IsoInstants {

    private IsoInstants() {}

    public static SimpleModule module() {
        return new SimpleModule("iso-instants")
                .addSerializer(Instant.class, new Writer())
                .addDeserializer(Instant.class, new Reader());
    }

    /** The longest text {@link #formatInRange} writes: {@code 9999-12-31T23:59:59.123456789Z}. */
    private static final int MAX_CHARS = 30;

    /** The text {@link Instant#toString()} gives, for years 0 to 9999. */
    static String format(Instant instant) {
        char[] text = new char[MAX_CHARS];
        int length = formatInRange(instant, text);
        return length < 0 ? instant.toString() : new String(text, 0, length);
    }

    /**
     * Writes {@link #format}'s text for years 0 to 9999 into {@code text} from its start and answers its length, or -1
     * for any other year. Into one array, digit by digit: the engine writes a dozen instants per record, and building
     * each from a {@code StringBuilder} and a string per field was about a twentieth of what its threads allocate.
     */
    private static int formatInRange(Instant instant, char[] text) {
        long seconds = instant.getEpochSecond();
        long day = Math.floorDiv(seconds, 86_400);
        int secondOfDay = (int) Math.floorMod(seconds, 86_400);
        LocalDate date = LocalDate.ofEpochDay(day);
        int year = date.getYear();
        if (year < 0 || year > 9999) {
            return -1;
        }
        int at = digits(text, 0, year, 4);
        text[at++] = '-';
        at = digits(text, at, date.getMonthValue(), 2);
        text[at++] = '-';
        at = digits(text, at, date.getDayOfMonth(), 2);
        text[at++] = 'T';
        at = digits(text, at, secondOfDay / 3600, 2);
        text[at++] = ':';
        at = digits(text, at, secondOfDay / 60 % 60, 2);
        text[at++] = ':';
        at = digits(text, at, secondOfDay % 60, 2);
        int nanos = instant.getNano();
        if (nanos > 0) {
            // As ISO_INSTANT prints it: in groups of three digits, as few as the value needs.
            text[at++] = '.';
            if (nanos % 1_000_000 == 0) {
                at = digits(text, at, nanos / 1_000_000, 3);
            } else if (nanos % 1_000 == 0) {
                at = digits(text, at, nanos / 1_000, 6);
            } else {
                at = digits(text, at, nanos, 9);
            }
        }
        text[at++] = 'Z';
        return at;
    }

    /**
     * The text {@code DateTimeFormatter.ISO_OFFSET_DATE_TIME} gives for the instant at offset zero, as the CloudEvents
     * SDK writes an event's {@code time}: the fraction with as few digits as the value needs ({@code .12}, not
     * {@code .120}) and none when it is zero.
     */
    public static String formatAsOffsetDateTime(Instant instant) {
        char[] text = new char[MAX_CHARS];
        int length = formatInRange(instant, text);
        if (length < 0) {
            return DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(instant.atOffset(ZoneOffset.UTC));
        }
        if (instant.getNano() == 0) {
            return new String(text, 0, length);
        }
        int end = length - 1;
        while (text[end - 1] == '0') {
            end--;
        }
        text[end] = 'Z';
        return new String(text, 0, end + 1);
    }

    /** The instant of {@code yyyy-MM-ddTHH:mm:ss[.f]Z} with one to nine fraction digits, or null for any other text. */
    static Instant parse(String text) {
        int length = text.length();
        if (length < 20 || length > 30 || text.charAt(4) != '-' || text.charAt(7) != '-' || text.charAt(10) != 'T'
                || text.charAt(13) != ':' || text.charAt(16) != ':' || text.charAt(length - 1) != 'Z') {
            return null;
        }
        int year = number(text, 0, 4);
        int month = number(text, 5, 7);
        int day = number(text, 8, 10);
        int hour = number(text, 11, 13);
        int minute = number(text, 14, 16);
        int second = number(text, 17, 19);
        if ((year | month | day | hour | minute | second) < 0 || hour > 23 || minute > 59 || second > 59) {
            return null;
        }
        int nanos = 0;
        if (length > 20) {
            int fractionDigits = length - 21;
            if (text.charAt(19) != '.' || fractionDigits < 1 || fractionDigits > 9) {
                return null;
            }
            int fraction = number(text, 20, length - 1);
            if (fraction < 0) {
                return null;
            }
            nanos = fraction * POWERS_OF_TEN[9 - fractionDigits];
        } else if (text.charAt(19) != 'Z') {
            return null;
        }
        try {
            long epochDay = LocalDate.of(year, month, day).toEpochDay();
            return Instant.ofEpochSecond(epochDay * 86_400 + hour * 3600L + minute * 60L + second, nanos);
        } catch (DateTimeException e) {
            return null;
        }
    }

    private static final int[] POWERS_OF_TEN = {1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000};

    /** The decimal number in {@code text[from, to)}, or -1 if any of it is not a digit. */
    private static int number(String text, int from, int to) {
        int value = 0;
        for (int index = from; index < to; index++) {
            int digit = text.charAt(index) - '0';
            if (digit < 0 || digit > 9) {
                return -1;
            }
            value = value * 10 + digit;
        }
        return value;
    }

    /** Writes {@code value}, at most {@code width} digits, zero-padded to {@code width}; answers the index after it. */
    private static int digits(char[] text, int at, int value, int width) {
        for (int index = at + width - 1; index >= at; index--) {
            text[index] = (char) ('0' + value % 10);
            value /= 10;
        }
        return at + width;
    }

    private static final class Writer extends ValueSerializer<Instant> {
        @Override
        public void serialize(Instant value, JsonGenerator generator, SerializationContext context) {
            char[] text = new char[MAX_CHARS];
            int length = formatInRange(value, text);
            if (length < 0) {
                generator.writeString(value.toString());
            } else {
                generator.writeString(text, 0, length);
            }
        }
    }

    private static final class Reader extends ValueDeserializer<Instant> {
        @Override
        public Instant deserialize(JsonParser parser, DeserializationContext context) {
            if (parser.currentToken() == JsonToken.VALUE_STRING) {
                Instant instant = parse(parser.getString());
                if (instant != null) {
                    return instant;
                }
            }
            return InstantDeserializer.INSTANT.deserialize(parser, context);
        }

        @Override
        public Class<?> handledType() {
            return Instant.class;
        }
    }
}
