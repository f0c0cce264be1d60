package dev.sopline.engine.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.engine.api.EmbeddedEngineProvider;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

class EngineProviderTest {

    @Test
    void shouldBeTheEngineThatServiceLoaderFinds() {
        // the gateway starts its embedded engine this way, never naming the class
        assertThat(ServiceLoader.load(EmbeddedEngineProvider.class)).singleElement().isInstanceOf(EngineProvider.class);
    }
}
