package dev.sopline.standalone;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.schemas.kafka.KafkaClientSecurity;
import dev.sopline.schemas.topic.Topics;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * No Docker engine runs where the tests run, so {@code docker-compose.yml} is checked by reading it: every service
 * the contract names is there, every image it builds has a Dockerfile whose jar the build produced, every main class
 * it launches exists, every variable it sets is one the services read, and the broker's users and ACLs
 * ({@code docker/kafka}) give the example worker its teams' topics only.
 */
class DockerComposeIT {

    private static final Path ROOT = Path.of("..");
    private static final Pattern JAAS_OPTION = Pattern.compile("(\\w+)=\"([^\"]*)\"");
    /** The runs the example worker has handlers for (ExampleWorker). */
    private static final List<String> EXAMPLE_RUNS = List.of("billing.pay", "accounts.create", "reports.build");

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

        assertThat(services).containsKeys("kafka", "kafka-acls-init", "engine-1", "engine-2", "gateway", "judgment-worker", "example-worker");
        assertThat(service(services, "kafka").get("image").toString()).startsWith("apache/kafka:");
        for (String name : services.keySet()) {
            if (!"no".equals(service(services, name).get("restart"))) {
                assertThat(service(services, name)).as(name).containsKey("healthcheck");
            }
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
                "SOP_LLM_PROVIDER", "SOP_JUDGMENT_HTTP_PORT", "SOP_EVENTS_TOPIC_PER_WORKSPACE", "SOP_WORKER_READ_PREVIOUS_TOPIC",
                "SOP_RESULT_KEYS");
        String sources = readSources();
        for (String variable : platformVariables) {
            if (!variable.equals("LOADER_MAIN")) {
                assertThat(sources).as("%s is read somewhere", variable).contains(variable);
            }
        }
        for (String name : List.of("engine-1", "engine-2", "gateway", "judgment-worker", "example-worker")) {
            Map<String, Object> environment = (Map<String, Object>) service(services, name).get("environment");
            for (String variable : environment.keySet()) {
                if (variable.startsWith("SOP_KAFKA_")) {
                    // Kafka client security settings: each must be one KafkaClientSecurity turns into a client property.
                    assertThat(KafkaClientSecurity.fromEnvironment(Map.of(variable, environment.get(variable).toString())).isEmpty())
                            .as("%s of %s is a Kafka client setting", variable, name).isFalse();
                } else {
                    assertThat(platformVariables).as(name).contains(variable);
                }
            }
            Object main = environment.get("LOADER_MAIN");
            if (main != null) {
                assertThat(Class.forName(main.toString())).as(name).isNotNull();
                assertThat(Class.forName(main.toString()).getMethod("main", String[].class)).isNotNull();
            }
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void shouldLetEveryClientSignInAndAuthorizeItOnABrokerWithoutPlaintextListener() throws IOException {
        Map<String, Object> services = compose();
        Map<String, Object> broker = (Map<String, Object>) service(services, "kafka").get("environment");
        Map<String, String> users = brokerUsers();

        assertThat(broker.get("KAFKA_LISTENER_SECURITY_PROTOCOL_MAP").toString().split(","))
                .allSatisfy(listener -> assertThat(listener).endsWith(":SASL_PLAINTEXT"));
        assertThat(broker).containsEntry("KAFKA_AUTHORIZER_CLASS_NAME", "org.apache.kafka.metadata.authorizer.StandardAuthorizer")
                .containsEntry("KAFKA_ALLOW_EVERYONE_IF_NO_ACL_FOUND", "false")
                .containsEntry("KAFKA_SUPER_USERS", "User:broker;User:platform");
        assertThat(broker.get("KAFKA_OPTS").toString()).contains("java.security.auth.login.config=/etc/kafka/secrets/kafka_server_jaas.conf");
        assertThat((List<String>) service(services, "kafka").get("volumes")).contains("./docker/kafka:/etc/kafka/secrets:ro");
        for (String name : List.of("engine-1", "engine-2", "gateway", "judgment-worker", "example-worker")) {
            Map<String, String> signIn = signIn((Map<String, Object>) service(services, name).get("environment"));
            assertThat(signIn).as(name).containsEntry("security.protocol", "SASL_PLAINTEXT").containsEntry("sasl.mechanism", "PLAIN");
            assertThat(users).as("%s signs in as a user of the broker, with its password", name)
                    .containsEntry(signIn.get("username"), signIn.get("password"));
            String expectedUser = name.equals("example-worker") ? "examples" : "platform";
            assertThat(signIn.get("username")).as(name).isEqualTo(expectedUser);
        }
        for (String tool : List.of("platform", "examples")) {
            Map<String, String> signIn = jaasOptions(Files.readString(ROOT.resolve("docker/kafka/" + tool + ".properties")));
            assertThat(users).as("docker/kafka/%s.properties", tool).containsEntry(tool, signIn.get("password"));
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void shouldGrantTheExampleWorkerItsTeamsTopicsAndNothingElse() throws IOException {
        Map<String, Object> services = compose();
        Map<String, Object> init = service(services, "kafka-acls-init");
        Map<String, Object> worker = service(services, "example-worker");

        assertThat(init.get("image")).isEqualTo(service(services, "kafka").get("image"));
        assertThat(((Map<String, Map<String, Object>>) init.get("depends_on")).get("kafka")).containsEntry("condition", "service_healthy");
        assertThat(((Map<String, Map<String, Object>>) worker.get("depends_on")).get("kafka-acls-init"))
                .containsEntry("condition", "service_completed_successfully");
        assertThat((List<String>) init.get("command")).containsExactly("/bin/bash", "/etc/kafka/secrets/acls.sh");
        assertThat(((Map<String, Object>) worker.get("environment"))).containsEntry("SOP_WORKER_READ_PREVIOUS_TOPIC", "false");

        List<List<String>> grants = aclGrants("User:examples");
        Set<String> readable = new TreeSet<>();
        Set<String> writable = new TreeSet<>();
        Set<String> groups = new TreeSet<>();
        for (List<String> grant : grants) {
            assertThat(grant).as("literal resources only").doesNotContain("--resource-pattern-type").doesNotContain("*");
            String topic = option(grant, "--topic");
            if (topic != null && grant.contains("Read")) {
                readable.add(topic);
            }
            if (topic != null && grant.contains("Write")) {
                writable.add(topic);
            }
            if (option(grant, "--group") != null) {
                groups.add(option(grant, "--group"));
            }
            assertThat(grant).as("no cluster-wide right").doesNotContain("--cluster");
        }
        assertThat(readable).containsExactlyInAnyOrderElementsOf(EXAMPLE_RUNS.stream().map(Topics::automatedStepsFor).toList());
        assertThat(readable).doesNotContain(Topics.automatedStepsFor("shipping.send"), "sop.steps.automated", Topics.EVENTS);
        assertThat(writable).as("results: the SDK's to the command topic, others' to sop.step-results").containsExactly("sop.commands", Topics.STEP_RESULTS);
        assertThat(groups).containsExactly("example-workers");
    }

    /** The broker's users and their passwords, from its JAAS file. */
    private static Map<String, String> brokerUsers() throws IOException {
        Map<String, String> users = new HashMap<>();
        jaasOptions(Files.readString(ROOT.resolve("docker/kafka/kafka_server_jaas.conf"))).forEach((option, value) -> {
            if (option.startsWith("user_")) {
                users.put(option.substring("user_".length()), value);
            }
        });
        return users;
    }

    /** The client settings a service's environment gives, with the user name and password of its JAAS line. */
    private static Map<String, String> signIn(Map<String, Object> environment) {
        Map<String, String> env = new HashMap<>();
        environment.forEach((name, value) -> env.put(name, value.toString()));
        Map<String, String> settings = new HashMap<>(KafkaClientSecurity.fromEnvironment(env).settings());
        settings.putAll(jaasOptions(settings.getOrDefault("sasl.jaas.config", "")));
        return settings;
    }

    private static Map<String, String> jaasOptions(String text) {
        Map<String, String> options = new HashMap<>();
        Matcher option = JAAS_OPTION.matcher(text);
        while (option.find()) {
            options.put(option.group(1), option.group(2));
        }
        return options;
    }

    /** The arguments of each {@code allow} line of the ACL script that names {@code principal}. */
    private static List<List<String>> aclGrants(String principal) throws IOException {
        List<List<String>> grants = new ArrayList<>();
        for (String line : Files.readAllLines(ROOT.resolve("docker/kafka/acls.sh"))) {
            List<String> words = Arrays.asList(line.trim().split("\\s+"));
            if (words.get(0).equals("allow") && principal.equals(option(words, "--allow-principal"))) {
                grants.add(words);
            }
        }
        assertThat(grants).as("grants of %s", principal).isNotEmpty();
        return grants;
    }

    private static String option(List<String> words, String name) {
        int at = words.indexOf(name);
        return at < 0 || at + 1 >= words.size() ? null : words.get(at + 1);
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
