package dev.sopline.gateway;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The gateway reads the engine through {@code engine-api} alone, so it can run against remote replicas with the
 * engine's jar absent, and the engine's insides can change without touching the gateway. The Maven scope
 * ({@code engine-streams} at run time only) already stops the build; this names the rule.
 */
@AnalyzeClasses(packages = "dev.sopline.gateway", importOptions = ImportOption.DoNotIncludeTests.class)
class EngineBoundaryTest {

    @ArchTest
    static final ArchRule gatewayUsesOnlyTheEngineApi = noClasses().that().resideInAPackage("dev.sopline.gateway..")
            .should().dependOnClassesThat(resideInAPackage("dev.sopline.engine..").and(not(resideInAPackage("dev.sopline.engine.api.."))))
            .because("the gateway compiles against engine-api; the engine is found at run time through ServiceLoader");

    /** Kafka Streams is the engine's inside: a reader learns that a read cannot be answered from engine-api's own type. */
    @ArchTest
    static final ArchRule gatewayUsesNoKafkaStreams = noClasses().that().resideInAPackage("dev.sopline.gateway..")
            .should().dependOnClassesThat(resideInAPackage("org.apache.kafka.streams.."))
            .because("engine-api says \"cannot answer now\" with StateUnavailableException, and the gateway runs without the engine's jar");
}
