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

    /** The text {@link Instant#toString()} gives, for years 0 to 9999. */
    static String format(Instant instant) {
        String text = formatInRange(instant);
        return text == null ? instant.toString() : text;
    }

    /** {@link #format}'s text for years 0 to 9999, null for any other. */
    private static String formatInRange(Instant instant) {
        long seconds = instant.getEpochSecond();
        long day = Math.floorDiv(seconds, 86_400);
        int secondOfDay = (int) Math.floorMod(seconds, 86_400);
        LocalDate date = LocalDate.ofEpochDay(day);
        int year = date.getYear();
        if (year < 0 || year > 9999) {
            return null;
        }
        StringBuilder text = new StringBuilder(30);
        digits(text, year, 4).append('-');
        digits(text, date.getMonthValue(), 2).append('-');
        digits(text, date.getDayOfMonth(), 2).append('T');
        digits(text, secondOfDay / 3600, 2).append(':');
        digits(text, secondOfDay / 60 % 60, 2).append(':');
        digits(text, secondOfDay % 60, 2);
        int nanos = instant.getNano();
        if (nanos > 0) {
            // As ISO_INSTANT prints it: in groups of three digits, as few as the value needs.
            text.append('.');
            if (nanos % 1_000_000 == 0) {
                digits(text, nanos / 1_000_000, 3);
            } else if (nanos % 1_000 == 0) {
                digits(text, nanos / 1_000, 6);
            } else {
                digits(text, nanos, 9);
            }
        }
        return text.append('Z').toString();
    }

    /**
     * The text {@code DateTimeFormatter.ISO_OFFSET_DATE_TIME} gives for the instant at offset zero, as the CloudEvents
     * SDK writes an event's {@code time}: the fraction with as few digits as the value needs ({@code .12}, not
     * {@code .120}) and none when it is zero.
     */
    public static String formatAsOffsetDateTime(Instant instant) {
        String text = formatInRange(instant);
        if (text == null) {
            return DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(instant.atOffset(ZoneOffset.UTC));
        }
        if (instant.getNano() == 0) {
            return text;
        }
        int end = text.length() - 1;
        while (text.charAt(end - 1) == '0') {
            end--;
        }
        return text.substring(0, end) + "Z";
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

    private static StringBuilder digits(StringBuilder text, int value, int width) {
        String digits = Integer.toString(value);
        for (int pad = digits.length(); pad < width; pad++) {
            text.append('0');
        }
        return text.append(digits);
    }

    private static final class Writer extends ValueSerializer<Instant> {
        @Override
        public void serialize(Instant value, JsonGenerator generator, SerializationContext context) {
            generator.writeString(format(value));
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
