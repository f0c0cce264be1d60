package dev.sopline.schemas.definition;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.schemas.json.Json;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * {@code docs/process-format.md} cannot drift from the format: each section's field table names exactly the fields the
 * JSON Schema allows at that place, and the defaults it states are the ones the loader applies.
 */
class ProcessFormatDocTest {

    /** Doc section heading → where that object's properties are in the schema. */
    private static final Map<String, String> SECTIONS = Map.ofEntries(
            Map.entry("Top level", ""),
            Map.entry("process", "/$defs/process"),
            Map.entry("process.trigger", "/$defs/trigger"),
            Map.entry("process.trigger.auth", "/$defs/trigger_auth"),
            Map.entry("process.inputs[]", "/$defs/input"),
            Map.entry("process.outputs[]", "/$defs/process_output"),
            Map.entry("process.steps[]", "/$defs/step"),
            Map.entry("process.steps[].outputs[]", "/$defs/step_output"),
            Map.entry("process.steps[].judgment", "/$defs/judgment"),
            Map.entry("process.steps[].retry", "/$defs/retry"),
            Map.entry("process.steps[].parallel", "/$defs/parallel"),
            Map.entry("process.steps[].parallel.branches[]", "/$defs/branch"));
    private static final Pattern HEADING = Pattern.compile("^#{2,3} (.+)$");
    /** A field-table row: | `field` | type | required | default | notes |. */
    private static final Pattern FIELD_ROW = Pattern.compile("^\\| `([a-z_]+)` \\|([^|]*)\\|([^|]*)\\|([^|]*)\\|");

    @Test
    void shouldDocumentExactlyTheFieldsOfTheSchemaInEachSection() throws IOException {
        Map<String, Map<String, String>> documented = fieldTables();
        JsonNode schema = schema();

        assertThat(documented.keySet()).containsAll(SECTIONS.keySet());
        SECTIONS.forEach((section, pointer) -> {
            Set<String> properties = new LinkedHashSet<>(schema.at(pointer + "/properties").propertyNames());
            assertThat(properties).as("schema properties at %s", pointer).isNotEmpty();
            assertThat(documented.get(section).keySet()).as("fields documented under '%s'", section)
                    .containsExactlyInAnyOrderElementsOf(properties);
        });
    }

    @Test
    void shouldStateTheDefaultsTheLoaderApplies() throws IOException {
        Map<String, Map<String, String>> defaults = fieldTables();

        assertThat(defaults.get("process.trigger.auth").get("header")).isEqualTo("`" + TriggerAuth.DEFAULT_HEADER + "`");
        assertThat(defaults.get("process.trigger.auth").get("prefix")).isEqualTo("`" + TriggerAuth.DEFAULT_PREFIX + "`");
        assertThat(defaults.get("process.trigger.auth").get("encoding")).isEqualTo("`" + TriggerAuth.HEX + "`");
        assertThat(defaults.get("process.trigger").get("timezone")).isEqualTo("`" + Trigger.API.timezoneOrDefault() + "`");
        assertThat(defaults.get("process.steps[].judgment").get("confidence_threshold"))
                .isEqualTo("`" + JudgmentSettings.DEFAULT_CONFIDENCE_THRESHOLD + "`");
        assertThat(defaults.get("process.steps[].retry").get("max_attempts")).isEqualTo("`" + RetryPolicy.DEFAULT.maxAttempts() + "`");
        assertThat(defaults.get("process.steps[].retry").get("initial_backoff")).isEqualTo("`" + RetryPolicy.DEFAULT.initialBackoff() + "`");
        assertThat(defaults.get("process.steps[].retry").get("multiplier")).isEqualTo("`" + (int) RetryPolicy.DEFAULT.multiplier() + "`");
        assertThat(defaults.get("process.steps[]").get("timeout")).contains("`" + StepDefinition.DEFAULT_WEBHOOK_TIMEOUT.toDays() + "d`");
        assertThat(defaults.get("process.steps[].outputs[]").get("required")).isEqualTo("`true`");
        assertThat(defaults.get("process.inputs[]").get("required")).isEqualTo("`false`");
    }

    /** Section heading → field → the text of its Default column. */
    private static Map<String, Map<String, String>> fieldTables() throws IOException {
        Map<String, Map<String, String>> tables = new LinkedHashMap<>();
        String section = "";
        for (String line : Files.readAllLines(Path.of("..", "docs", "process-format.md"))) {
            Matcher heading = HEADING.matcher(line);
            if (heading.matches()) {
                section = heading.group(1).trim();
                continue;
            }
            Matcher row = FIELD_ROW.matcher(line);
            if (row.find()) {
                tables.computeIfAbsent(section, key -> new LinkedHashMap<>()).put(row.group(1), row.group(4).trim());
            }
        }
        return tables;
    }

    private static JsonNode schema() throws IOException {
        try (InputStream in = ProcessFormatDocTest.class.getResourceAsStream("/schemas/process-file.schema.json")) {
            return Json.mapper().readTree(in);
        }
    }
}
