package dev.sopline.gateway.config;

import dev.sopline.gateway.auth.TriggerSecrets;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
public class TriggerSecretsConfig {

    @Bean
    @ConditionalOnMissingBean
    TriggerSecrets triggerSecrets() {
        return TriggerSecrets.environment();
    }
}
