package dev.sopline.schemas.definition;

import java.time.Duration;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Duration text of process files: a positive whole number and one unit, {@code s}, {@code m}, {@code h} or
 * {@code d}. Written by hand because {@link Duration#parse} reads ISO-8601 ({@code PT30S}), which is not what
 * people write in these files.
 */
public final class Durations {

    private static final Pattern DURATION = Pattern.compile("([1-9][0-9]{0,8})([smhd])");

    private Durations() {}

    public static Optional<Duration> parse(String text) {
        if (text == null) {
            return Optional.empty();
        }
        Matcher matcher = DURATION.matcher(text.trim());
        if (!matcher.matches()) {
            return Optional.empty();
        }
        long amount = Long.parseLong(matcher.group(1));
        return Optional.of(switch (matcher.group(2)) {
            case "s" -> Duration.ofSeconds(amount);
            case "m" -> Duration.ofMinutes(amount);
            case "h" -> Duration.ofHours(amount);
            default -> Duration.ofDays(amount);
        });
    }
}
