package dev.sopline.schemas.json;

import com.fasterxml.jackson.annotation.JsonInclude;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.cfg.MapperBuilder;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.module.blackbird.BlackbirdModule;

/**
 * The one JSON mapping of the project: snake_case field names (CONTRACT: "field names are snake_case on the wire"),
 * absent values left out, unknown fields tolerated so that older readers accept newer events. {@link #configure}
 * gives the engine's binary encoding of its internal records the same mapping.
 */
public final class Json {

    private static final JsonMapper MAPPER = configure(JsonMapper.builder()).build();

    private Json() {}

    /**
     * The project's mapping on a mapper of any format. Blackbird reads and writes properties through generated lambdas
     * instead of reflection, and {@link IsoInstants} skips {@code DateTimeFormatter}: both only make the same text
     * cheaper to produce and read.
     */
    public static <M extends ObjectMapper, B extends MapperBuilder<M, B>> B configure(B builder) {
        return builder
                .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
                .changeDefaultPropertyInclusion(inclusion -> inclusion.withValueInclusion(JsonInclude.Include.NON_NULL))
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .addModule(new BlackbirdModule())
                .addModule(IsoInstants.module());
    }

    public static JsonMapper mapper() {
        return MAPPER;
    }
}
