package dev.sopline.schemas.json;

import com.fasterxml.jackson.annotation.JsonInclude;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.core.util.BufferRecycler;
import tools.jackson.core.util.JsonRecyclerPools;
import tools.jackson.core.util.RecyclerPool;
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

    /**
     * Where the mappers keep the buffers they write and read with: one set per thread. Jackson 3's default pool is one
     * deque shared by every thread, and taking a buffer from it and giving it back was about 3% of the engine's stream
     * thread at C=64, which writes a few dozen records per instance (docs/decisions.md, "Buffers per thread"). Jackson's
     * own measurements found the per-thread pool fastest for platform threads, which every thread that writes JSON or
     * Smile here is (the stream threads, the web server's request threads, the workers' polling threads).
     */
    public static final RecyclerPool<BufferRecycler> BUFFERS = JsonRecyclerPools.threadLocalPool();

    private static final JsonMapper MAPPER = configure(JsonMapper.builder(JsonFactory.builder().recyclerPool(BUFFERS).build())).build();

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
