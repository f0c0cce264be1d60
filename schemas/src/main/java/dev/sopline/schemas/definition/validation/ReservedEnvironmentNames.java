package dev.sopline.schemas.definition.validation;

import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Environment variables a webhook trigger's {@code auth.secret_env} may not name: the platform's own settings and
 * the basics every process has. Letting a file name them would make a value the file's author does not control (or
 * that is easy to guess, such as {@code PATH}) the HMAC secret of its trigger.
 *
 * <p>Names are compared without regard to case, because some systems look environment variables up that way.
 */
public final class ReservedEnvironmentNames {

    /**
     * Prefixes of the platform's and its runtime's settings, the judgment agent's model keys ({@code OPENAI_API_KEY},
     * {@code ANTHROPIC_API_KEY}) included: a trigger keyed by one would tell its caller, 401 or 500, whether the
     * platform holds that key, and take the key as its secret.
     */
    public static final List<String> PREFIXES = List.of("SOP_", "KAFKA_", "JAVA_", "SPRING_", "OPENAI_", "ANTHROPIC_");
    /** Variables every process environment has. */
    public static final Set<String> NAMES = Set.of("HOME", "PATH", "USER", "PWD", "HOSTNAME", "SHELL", "LANG");

    private ReservedEnvironmentNames() {}

    public static boolean isReserved(String name) {
        String upper = name.toUpperCase(Locale.ROOT);
        return NAMES.contains(upper) || PREFIXES.stream().anyMatch(upper::startsWith);
    }

    /** The rule in words, for the violation a file gets. */
    static String describe() {
        return "names starting with %s and the names %s are refused".formatted(
                String.join(", ", PREFIXES), String.join(", ", NAMES.stream().sorted().toList()));
    }
}
