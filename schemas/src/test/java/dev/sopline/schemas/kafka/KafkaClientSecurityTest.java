package dev.sopline.schemas.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class KafkaClientSecurityTest {

    private static final String JAAS = "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"team-billing\" "
            + "password=\"s3cret\";";

    @Test
    void shouldTurnSopKafkaSecurityVariablesIntoKafkaClientProperties() {
        // given
        Map<String, String> env = Map.of(
                "SOP_KAFKA_SECURITY_PROTOCOL", "SASL_PLAINTEXT",
                "SOP_KAFKA_SASL_MECHANISM", "PLAIN",
                "SOP_KAFKA_SASL_JAAS_CONFIG", JAAS,
                "SOP_KAFKA_SSL_TRUSTSTORE_LOCATION", "/etc/kafka/truststore.p12");

        // when
        KafkaClientSecurity security = KafkaClientSecurity.fromEnvironment(env);

        // then
        assertThat(security.settings()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "security.protocol", "SASL_PLAINTEXT",
                "sasl.mechanism", "PLAIN",
                "sasl.jaas.config", JAAS,
                "ssl.truststore.location", "/etc/kafka/truststore.p12"));
    }

    @Test
    void shouldLeavePlatformSettingsAndOtherClientSettingsAlone() {
        // given: platform settings that share the prefix, and client settings the platform chooses itself
        Map<String, String> env = Map.of(
                "SOP_KAFKA_PORT", "29092",
                "SOP_KAFKA_REPLICATION_FACTOR", "3",
                "SOP_KAFKA_ENABLE_IDEMPOTENCE", "false",
                "SOP_KAFKA_SASL_MECHANISM", " ",
                "KAFKA_SECURITY_PROTOCOL", "SSL");

        // when
        KafkaClientSecurity security = KafkaClientSecurity.fromEnvironment(env);

        // then
        assertThat(security.isEmpty()).isTrue();
    }

    @Test
    void shouldAddTheSettingsToEveryKindOfClientConfiguration() {
        // given
        KafkaClientSecurity security = KafkaClientSecurity.fromEnvironment(Map.of(
                "SOP_KAFKA_SECURITY_PROTOCOL", "SASL_PLAINTEXT", "SOP_KAFKA_SASL_JAAS_CONFIG", JAAS));

        // when
        Map<String, Object> producer = security.applyTo(Map.of("bootstrap.servers", "kafka:9092", "acks", "all"));
        Properties streams = new Properties();
        streams.put("application.id", "sop-engine");
        security.applyTo(streams);

        // then
        assertThat(producer).containsEntry("bootstrap.servers", "kafka:9092").containsEntry("acks", "all")
                .containsEntry("security.protocol", "SASL_PLAINTEXT").containsEntry("sasl.jaas.config", JAAS);
        assertThat(streams).containsEntry("application.id", "sop-engine").containsEntry("security.protocol", "SASL_PLAINTEXT")
                .containsEntry("sasl.jaas.config", JAAS);
    }

    @Test
    void shouldNameTheSettingsButNeverShowTheirValues() {
        // given
        KafkaClientSecurity security = KafkaClientSecurity.fromEnvironment(Map.of(
                "SOP_KAFKA_SASL_MECHANISM", "PLAIN", "SOP_KAFKA_SASL_JAAS_CONFIG", JAAS));

        // when
        String shown = security.toString();

        // then
        assertThat(shown).contains("sasl.jaas.config", "sasl.mechanism").doesNotContain("s3cret").doesNotContain("PLAIN");
    }
}
