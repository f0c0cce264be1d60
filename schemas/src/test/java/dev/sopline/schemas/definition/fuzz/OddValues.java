package dev.sopline.schemas.definition.fuzz;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/** Values a careless or hostile author might put anywhere in a process file. */
final class OddValues {

    /** Every field name the format knows, so that generated keys often land on a real field. */
    static final List<String> FIELD_NAMES = List.of("engine", "process", "name", "version", "owner", "description",
            "trigger", "inputs", "outputs", "steps", "type", "cron", "timezone", "auth", "secret_env", "header", "prefix",
            "encoding", "delivery_header", "required", "values", "value", "id", "timeout", "run", "judgment", "retry",
            "allow_agent", "confidence_threshold", "escalate_to", "instructions", "max_attempts", "initial_backoff",
            "multiplier", "<<", "", " ", "ünïcödé", "a.b", "x[0]", "steps[0]");

    private static final List<Object> EDGE_SCALARS = List.of(
            0, -1, 1, 2, 100, 101, Integer.MAX_VALUE, Integer.MIN_VALUE, Long.MAX_VALUE, 4_294_967_297L,
            new BigInteger("123456789012345678901234567890"), 0.5, -0.0, 1.5, 1e308, -1e-300, Double.NaN,
            Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, new BigDecimal("0.1000000000000000000001"),
            true, false, "", " ", "\t", "0", "1.0", "0.1", "1.0.0.0", "01.0", "1.2.3.4.5", "99999999999.0", "2.0", "-1.0",
            "0s", "1s", "30s", "15m", "4h", "7d", "1w", "-1s", "0.5h", "999999999d", "9999999999d", "PT30S", " 5m ",
            "* * * * *", "0 9 * * 1-5", "@daily", "@hourly", "@reboot", "*/0 * * * *", "60 * * * *", "0 0 31 2 *",
            "* * * * * *", "1-0 * * * *", "MON#9 * * * *", "L W ? # *", "0-4294967296 * * * *", "5/ * * * *",
            "UTC", "Europe/Paris", "Mars/Olympus", "+25:00", "Z", "GMT+99", "../../etc/passwd",
            "form", "automated", "judgment", "webhook", "api", "schedule", "string", "enum", "number", "integer",
            "boolean", "human", "robot", "hex", "base64", "SOP_BOOTSTRAP_TOKEN", "PATH", "home", "kafka_x",
            "ONBOARDING_WEBHOOK_SECRET", "instances", "metrics", "null", "~", "yes", "no", "on", "0x1F", "0o17",
            "1_000", "-_", ".nan", ".inf", "2001-12-14t21:59:43.10-05:00");

    private static final List<String> UNICODE = List.of(
            "\u202Eevil\u202C", "\u200B", "\uFEFF", "e\u0301\u0301\u0301", "😀🚀", "\uD834\uDD1E", "\u2028", "\u2029",
            "\u0000", "\u0007", "\u001B[31m", "ｆｕｌｌ", "İı", "ß", "\u00A0", "Ω\u0337", "\u0085", "\uFFFD", "𝔘𝔫𝔦", "\r\n");

    private OddValues() {}

    static Object scalar(Random random) {
        return switch (random.nextInt(6)) {
            case 0 -> text(random);
            case 1 -> reference(random);
            case 2 -> random.nextLong();
            case 3 -> random.nextDouble() * Math.pow(10, random.nextInt(40) - 20);
            default -> pick(random, EDGE_SCALARS);
        };
    }

    private static final List<Object> NUMBER_EDGES = List.of(Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
            -0.0, -1, 0, 0.99, 1.0000001, 1.5, 10.01, 100, 101, 4_294_967_297L, Long.MIN_VALUE,
            new BigInteger("18446744073709551617"), 1e308, "0.5", "1");

    /** An edge value for {@code field}: numbers around its range, or any edge value. */
    static Object edgeScalarFor(String field, Random random) {
        boolean numeric = List.of("confidence_threshold", "max_attempts", "multiplier").contains(field);
        return numeric && random.nextInt(4) > 0 ? pick(random, NUMBER_EDGES) : pick(random, EDGE_SCALARS);
    }

    /** A value of a shape other than {@code current}: scalar, list or mapping. */
    static Object otherShape(Random random, Object current) {
        int shape = current instanceof Map<?, ?> ? 1 + random.nextInt(2) : current instanceof List<?> ? 2 * random.nextInt(2) : 1 + random.nextInt(2);
        return switch (shape) {
            case 0 -> random.nextInt(8) == 0 ? null : scalar(random);
            case 1 -> list(random);
            default -> mapping(random);
        };
    }

    static List<Object> list(Random random) {
        List<Object> list = new ArrayList<>();
        int size = random.nextInt(4);
        for (int i = 0; i < size; i++) {
            list.add(random.nextInt(4) == 0 ? mapping(random) : scalar(random));
        }
        return list;
    }

    static Map<Object, Object> mapping(Random random) {
        Map<Object, Object> map = new LinkedHashMap<>();
        int size = random.nextInt(4);
        for (int i = 0; i < size; i++) {
            map.put(key(random), scalar(random));
        }
        return map;
    }

    static Object key(Random random) {
        return switch (random.nextInt(10)) {
            case 0 -> random.nextInt(100);
            case 1 -> random.nextBoolean();
            case 2 -> text(random);
            default -> pick(random, FIELD_NAMES);
        };
    }

    static String text(Random random) {
        return switch (random.nextInt(5)) {
            case 0 -> pick(random, UNICODE) + pick(random, FIELD_NAMES) + pick(random, UNICODE);
            case 1 -> longText(random);
            case 2 -> reference(random);
            default -> pick(random, EDGE_SCALARS).toString();
        };
    }

    /** Up to 300,000 characters, past the 256 KiB limit of a process file; rarely that long, to keep tries fast. */
    static String longText(Random random) {
        int length = random.nextInt(20) == 0 ? 200_000 + random.nextInt(100_000) : 1 + random.nextInt(2_000);
        String unit = pick(random, List.of("x", "${", "é", "😀", "ab cd ", "\\"));
        return unit.repeat(length / unit.length() + 1).substring(0, length - length % unit.length()); // no half emoji
    }

    /** Text holding {@code ${...}} expressions with any root and path, well-formed or not. */
    static String reference(Random random) {
        String root = pick(random, List.of("inputs", "steps", "trigger", "callback", "outputs", "", " ", "INPUTS", "env", "${"));
        List<String> segments = new ArrayList<>(List.of(root));
        int depth = random.nextInt(5);
        for (int i = 0; i < depth; i++) {
            segments.add(pick(random, List.of("payload", "outputs", "review", "policy", "draft", "identity", "pay",
                    "amount", "employee", "email", "0", "-1", "", "a b", "é", "__proto__", "x".repeat(1 + random.nextInt(200)))));
        }
        String expression = String.join(".", segments);
        String reference = switch (random.nextInt(8)) {
            case 0 -> "${" + expression;
            case 1 -> "$" + expression + "}";
            case 2 -> "${${" + expression + "}}";
            case 3 -> "${}";
            default -> "${" + expression + "}";
        };
        return random.nextBoolean() ? reference : "before " + reference + " after ${inputs.x}";
    }

    static <T> T pick(Random random, List<T> values) {
        return values.get(random.nextInt(values.size()));
    }
}
