package dev.sopline.standalone;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.sopline.schemas.topic.Topics;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.MetadataVersion;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * The compose broker's security, run without Docker: a broker of its own (the shared test broker has no SASL) started
 * with the {@code kafka} service's settings from {@code docker-compose.yml} as the {@code apache/kafka} image reads
 * them, its users from {@code docker/kafka/kafka_server_jaas.conf}, and the grants of {@code docker/kafka/acls.sh}.
 * Only the addresses differ. The example worker's user, signing in with {@code docker/kafka/examples.properties},
 * reads its team's topic and writes results, and is refused another team's topic; the platform, given the compose
 * engine's {@code SOP_KAFKA_*} variables, serves with every one of its Kafka clients signed in.
 */
class ComposeBrokerAclsIT {

    private static final Path ROOT = Path.of("..");
    private static final String BILLING = Topics.automatedStepsFor("billing.pay");
    private static final String SHIPPING = Topics.automatedStepsFor("shipping.send");

    private static Path logDir;
    private static KafkaRaftServer broker;
    private static String bootstrap;

    @BeforeAll
    static void startBrokerAsComposeDoes() throws Exception {
        int port = StandaloneProcess.freePort();
        int controllerPort = StandaloneProcess.freePort();
        logDir = Files.createTempDirectory("compose-broker");
        Properties props = composeBrokerProperties();
        props.put("listeners", "CLIENTS://localhost:" + port + ",CONTROLLER://localhost:" + controllerPort);
        props.put("advertised.listeners", "CLIENTS://localhost:" + port);
        props.put("controller.quorum.voters", "1@localhost:" + controllerPort);
        props.put("log.dirs", logDir.toString());
        // Compose gives the JAAS file with KAFKA_OPTS, for the whole JVM; here the same users are given per listener,
        // so that no other test in this JVM sees them.
        String users = jaasModule();
        props.put("listener.name.clients.plain.sasl.jaas.config", users);
        props.put("listener.name.controller.plain.sasl.jaas.config", users);
        KafkaConfig config = KafkaConfig.fromProps(props, false);
        new Formatter().setPrintStream(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8))
                .setNodeId(config.nodeId()).setClusterId(Uuid.randomUuid().toString())
                .setDirectories(List.of(logDir.toString())).setMetadataLogDirectory(logDir.toString())
                .setControllerListenerName("CONTROLLER").setReleaseVersion(MetadataVersion.LATEST_PRODUCTION).run();
        broker = new KafkaRaftServer(config, Time.SYSTEM);
        broker.startup();
        bootstrap = "localhost:" + port;

        try (Admin platform = Admin.create(clientConfig("platform"))) {
            platform.createTopics(List.of(new NewTopic(BILLING, 1, (short) 1), new NewTopic(SHIPPING, 1, (short) 1),
                    new NewTopic(Topics.STEP_RESULTS, 1, (short) 1), new NewTopic("sop.commands", 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
            platform.createAcls(aclScriptGrants()).all().get(30, TimeUnit.SECONDS);
        }
        try (KafkaProducer<String, String> platform = new KafkaProducer<>(clientConfig("platform"), new StringSerializer(), new StringSerializer())) {
            platform.send(new ProducerRecord<>(BILLING, "i-1", "billing step")).get(30, TimeUnit.SECONDS);
            platform.send(new ProducerRecord<>(SHIPPING, "i-2", "shipping step")).get(30, TimeUnit.SECONDS);
        }
    }

    @AfterAll
    static void stopBroker() throws IOException {
        if (broker != null) {
            broker.shutdown();
            broker.awaitShutdown();
        }
        if (logDir != null) {
            try (var files = Files.walk(logDir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void shouldServeWhenThePlatformSignsInWithTheComposeEnginesVariables(
            // The platform's data directory and its log beside it: kept when the test fails.
            @TempDir(cleanup = CleanupMode.ON_SUCCESS) Path workDir) throws Exception {
        Map<String, Object> engine = (Map<String, Object>) composeServices().get("engine-1");
        Map<String, String> env = new HashMap<>();
        ((Map<String, Object>) engine.get("environment")).forEach((name, value) -> {
            if (name.startsWith("SOP_KAFKA_")) {
                env.put(name, value.toString());
            }
        });
        assertThat(env).containsKeys("SOP_KAFKA_SECURITY_PROTOCOL", "SOP_KAFKA_SASL_MECHANISM", "SOP_KAFKA_SASL_JAAS_CONFIG");
        int httpPort = StandaloneProcess.freePort();
        env.put("KAFKA_BOOTSTRAP_SERVERS", bootstrap);
        env.put("SOP_HTTP_PORT", String.valueOf(httpPort));
        env.put("SOP_JUDGMENT_WORKER", "false");
        env.put("SOP_BOOTSTRAP_TOKEN", "compose-broker-acls-it");
        Path dataDir = Files.createTempDirectory(workDir, "compose-platform");

        try (StandaloneProcess platform = new StandaloneProcess(dataDir, env)) {
            platform.start();

            // Healthy means the engine's streams run and the gateway's readers and writers are caught up: every client
            // of both signed in, since the broker has no other way in.
            platform.awaitHealthy("http://localhost:" + httpPort, Duration.ofSeconds(120));
            assertThat(platform.output()).doesNotContain("platform-secret");
        }
    }

    @Test
    void shouldLetTheExampleWorkerReadItsTeamsTopicInItsGroup() {
        try (KafkaConsumer<String, String> worker = consumer("examples")) {
            worker.subscribe(List.of(BILLING));
            List<String> read = new ArrayList<>();
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                worker.poll(Duration.ofMillis(200)).forEach(record -> read.add(record.value()));
                return !read.isEmpty();
            });
            assertThat(read).containsExactly("billing step");
            worker.commitSync();
        }
    }

    @Test
    void shouldRefuseTheExampleWorkerAnotherTeamsTopic() {
        try (KafkaConsumer<String, String> worker = consumer("examples")) {
            worker.subscribe(List.of(SHIPPING));
            assertThatThrownBy(() -> {
                for (int i = 0; i < 100; i++) {
                    worker.poll(Duration.ofMillis(200));
                }
            }).isInstanceOf(TopicAuthorizationException.class).hasMessageContaining(SHIPPING);
        }
    }

    @Test
    void shouldLetTheExampleWorkerWriteResultsWithAnIdempotentProducerButNotSteps() throws Exception {
        Map<String, Object> config = new HashMap<>(clientConfig("examples"));
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
        try (KafkaProducer<String, String> worker = new KafkaProducer<>(config, new StringSerializer(), new StringSerializer())) {
            assertThat(worker.send(new ProducerRecord<>(Topics.STEP_RESULTS, "i-1", "result")).get(30, TimeUnit.SECONDS).topic())
                    .isEqualTo(Topics.STEP_RESULTS);
            // The SDK's results go to the command topic, where the engines take an unsigned record only as a result.
            assertThat(worker.send(new ProducerRecord<>("sop.commands", "i-1", "result")).get(30, TimeUnit.SECONDS).topic())
                    .isEqualTo("sop.commands");
            assertThatThrownBy(() -> worker.send(new ProducerRecord<>(BILLING, "i-1", "forged step")).get(30, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(TopicAuthorizationException.class);
        }
    }

    @Test
    void shouldCheckATransactionsWriteThatMeetsTheLastCommitsMarkersAgainAfterAMillisecond() throws Exception {
        try (Admin platform = Admin.create(clientConfig("platform"))) {
            ConfigResource node = new ConfigResource(ConfigResource.Type.BROKER, "1");
            Config config = platform.describeConfigs(List.of(node)).all().get(30, TimeUnit.SECONDS).get(node);

            assertThat(config.get("add.partitions.to.txn.retry.backoff.ms").value()).as("Kafka's default is 20 ms").isEqualTo("1");
        }
    }

    private static KafkaConsumer<String, String> consumer(String user) {
        Map<String, Object> config = new HashMap<>(clientConfig(user));
        config.put(ConsumerConfig.GROUP_ID_CONFIG, "example-workers");
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        return new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer());
    }

    /** Signs in as compose's tools do, with {@code docker/kafka/<user>.properties}. */
    private static Map<String, Object> clientConfig(String user) {
        Properties file = new Properties();
        try {
            file.load(new StringReader(Files.readString(ROOT.resolve("docker/kafka/" + user + ".properties"))));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        Map<String, Object> config = new HashMap<>();
        file.forEach((key, value) -> config.put(key.toString(), value));
        config.put("bootstrap.servers", bootstrap);
        return config;
    }

    /** The kafka service's KAFKA_* variables as the image turns them into server.properties ("_" becomes "."). */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> composeServices() throws IOException {
        LoaderOptions options = new LoaderOptions();
        options.setMergeOnCompose(true);
        Map<String, Object> file = new Yaml(new SafeConstructor(options)).load(Files.readString(ROOT.resolve("docker-compose.yml")));
        return (Map<String, Object>) file.get("services");
    }

    @SuppressWarnings("unchecked")
    private static Properties composeBrokerProperties() throws IOException {
        Map<String, Object> kafka = (Map<String, Object>) composeServices().get("kafka");
        Properties props = new Properties();
        ((Map<String, Object>) kafka.get("environment")).forEach((name, value) -> {
            if (name.startsWith("KAFKA_") && !name.equals("KAFKA_OPTS")) {
                props.put(name.substring("KAFKA_".length()).toLowerCase(Locale.ROOT).replace('_', '.'), value.toString());
            }
        });
        return props;
    }

    /** The login module line of the JAAS file's KafkaServer section. */
    private static String jaasModule() throws IOException {
        String jaas = Files.readString(ROOT.resolve("docker/kafka/kafka_server_jaas.conf"));
        String section = jaas.substring(jaas.indexOf("KafkaServer {") + "KafkaServer {".length(), jaas.indexOf("};"));
        return section.trim().replaceAll("\\s+", " ");
    }

    /** The {@code allow} lines of {@code docker/kafka/acls.sh}, as the ACLs kafka-acls.sh creates from them. */
    private static List<AclBinding> aclScriptGrants() throws IOException {
        List<AclBinding> bindings = new ArrayList<>();
        for (String line : Files.readAllLines(ROOT.resolve("docker/kafka/acls.sh"))) {
            List<String> words = Arrays.asList(line.trim().split("\\s+"));
            if (!words.get(0).equals("allow")) {
                continue;
            }
            String principal = words.get(words.indexOf("--allow-principal") + 1);
            ResourcePattern resource = words.contains("--topic")
                    ? new ResourcePattern(ResourceType.TOPIC, words.get(words.indexOf("--topic") + 1), PatternType.LITERAL)
                    : new ResourcePattern(ResourceType.GROUP, words.get(words.indexOf("--group") + 1), PatternType.LITERAL);
            for (int i = 0; i < words.size(); i++) {
                if (words.get(i).equals("--operation")) {
                    AclOperation operation = AclOperation.valueOf(words.get(i + 1).toUpperCase(Locale.ROOT));
                    bindings.add(new AclBinding(resource, new AccessControlEntry(principal, "*", operation, AclPermissionType.ALLOW)));
                }
            }
        }
        assertThat(bindings).isNotEmpty();
        return bindings;
    }
}
