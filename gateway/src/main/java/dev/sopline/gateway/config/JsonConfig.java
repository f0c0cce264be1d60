package dev.sopline.gateway.config;

import dev.sopline.schemas.json.Json;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.json.JsonMapper;

/** HTTP bodies use the same JSON mapping as the topics: snake_case, absent fields left out. */
@Configuration(proxyBeanMethods = false)
public class JsonConfig {

    @Bean
    JsonMapper jsonMapper() {
        return Json.mapper();
    }
}
