package dev.sopline.standalone;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * No Docker engine runs where the tests run, so {@code docker-compose.yml} is checked by reading it: every service
 * the contract names is there, every image it builds has a Dockerfile whose jar the build produced, every main class
 * it launches exists, and every variable it sets is one the services read.
 */
class DockerComposeIT {

    private static final Path ROOT = Path.of("..");

    @SuppressWarnings("unchecked")
    private static Map<String, Object> compose() throws IOException {
        LoaderOptions options = new LoaderOptions();
        options.setMergeOnCompose(true);
        Map<String, Object> file = new Yaml(new SafeConstructor(options)).load(Files.readString(ROOT.resolve("docker-compose.yml")));
        return (Map<String, Object>) file.get("services");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> service(Map<String, Object> services, String name) {
        return (Map<String, Object>) services.get(name);
    }

    @Test
    void shouldDeclareKafkaTwoEnginesGatewayJudgmentWorkerAndExampleWorker() throws IOException {
        Map<String, Object> services = compose();

        assertThat(services).containsKeys("kafka", "engine-1", "engine-2", "gateway", "judgment-worker", "example-worker");
        assertThat(service(services, "kafka").get("image").toString()).startsWith("apache/kafka:");
        for (String name : services.keySet()) {
            assertThat(service(services, name)).as(name).containsKey("healthcheck");
        }
    }

    @Test
    void shouldBuildEveryImageFromADockerfileWhoseJarTheBuildProduces() throws IOException {
        Map<String, Object> services = compose();
        for (String name : services.keySet()) {
            Object build = service(services, name).get("build");
            if (build == null) {
                continue;
            }
            Path context = ROOT.resolve(build.toString());
            Path dockerfile = context.resolve("Dockerfile");
            assertThat(dockerfile).as(name).exists();
            Matcher copy = Pattern.compile("COPY (\\S+\\.jar) ").matcher(Files.readString(dockerfile));
            assertThat(copy.find()).as("%s copies a jar", dockerfile).isTrue();
            assertThat(context.resolve(copy.group(1))).as("jar of %s", name).exists();
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void shouldLaunchMainClassesThatExistAndSetOnlyVariablesTheServicesRead() throws Exception {
        Map<String, Object> services = compose();
        Set<String> platformVariables = Set.of("LOADER_MAIN", "SOP_ENGINE_QUERY_URLS", "KAFKA_BOOTSTRAP_SERVERS", "SOP_HTTP_PORT", "SOP_DATA_DIR",
                "SOP_BOOTSTRAP_TOKEN", "SOP_PUBLIC_URL", "SOP_RATE_LIMIT_PER_SECOND", "SOP_RATE_LIMIT_BURST", "SOP_ENGINE_QUERY_URL",
                "SOP_ENGINE_ADVERTISED_ENDPOINT", "SOP_ENGINE_PARTITIONS", "SOP_ENGINE_STANDBY_REPLICAS", "SOP_ENGINE_COMMIT_INTERVAL_MS",
                "SOP_LLM_PROVIDER", "SOP_JUDGMENT_HTTP_PORT", "SOP_EVENTS_TOPIC_PER_WORKSPACE");
        String sources = readSources();
        for (String variable : platformVariables) {
            if (!variable.equals("LOADER_MAIN")) {
                assertThat(sources).as("%s is read somewhere", variable).contains(variable);
            }
        }
        for (String name : List.of("engine-1", "engine-2", "gateway", "judgment-worker", "example-worker")) {
            Map<String, Object> environment = (Map<String, Object>) service(services, name).get("environment");
            assertThat(platformVariables).as(name).containsAll(environment.keySet());
            Object main = environment.get("LOADER_MAIN");
            if (main != null) {
                assertThat(Class.forName(main.toString())).as(name).isNotNull();
                assertThat(Class.forName(main.toString()).getMethod("main", String[].class)).isNotNull();
            }
        }
    }

    private static String readSources() throws IOException {
        StringBuilder all = new StringBuilder();
        for (String module : List.of("engine-streams", "gateway", "judgment-worker", "example-worker", "standalone")) {
            try (var files = Files.walk(ROOT.resolve(module).resolve("src/main"))) {
                for (Path file : files.filter(Files::isRegularFile).toList()) {
                    all.append(Files.readString(file));
                }
            }
        }
        return all.toString();
    }
}
