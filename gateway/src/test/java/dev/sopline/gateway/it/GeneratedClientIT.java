package dev.sopline.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sopline.client.ApiClient;
import dev.sopline.client.ApiException;
import dev.sopline.client.api.InstancesApi;
import dev.sopline.client.api.ProcessesApi;
import dev.sopline.client.api.StepsApi;
import dev.sopline.client.model.Error;
import dev.sopline.client.model.Instance;
import dev.sopline.client.model.PendingStep;
import dev.sopline.client.model.ProcessDefinition;
import dev.sopline.client.model.RegisteredProcess;
import dev.sopline.client.model.StartRequest;
import dev.sopline.client.model.StartedInstance;
import dev.sopline.client.model.Step;
import dev.sopline.client.model.SubmitRequest;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client generated from the OpenAPI document by openapi-generator (Java, native HTTP client; see the gateway's
 * pom) drives a whole instance against the running gateway: if it cannot, the document is wrong.
 */
class GeneratedClientIT extends GatewayTestBase {

    private static final String PROCESS = "client-review";
    private static final String FILE = GatewayApiIT.REVIEW.replace("name: review", "name: " + PROCESS);

    @TempDir
    Path files;

    private ProcessesApi processes;
    private InstancesApi instances;
    private StepsApi steps;

    @BeforeEach
    void generatedClient() {
        ApiClient client = new ApiClient();
        client.updateBaseUri("http://localhost:" + port);
        client.setRequestInterceptor(request -> request.header("Authorization", "Bearer " + TOKEN));
        processes = new ProcessesApi(client);
        instances = new InstancesApi(client);
        steps = new StepsApi(client);
    }

    @Test
    void shouldRegisterStartResolveAndReadAnInstanceWithTheGeneratedClient() throws Exception {
        File file = Files.writeString(Files.createTempFile(files, "client-review", ".yaml"), FILE).toFile();
        RegisteredProcess registered = processes.registerProcess(file);
        assertThat(registered.getName()).isEqualTo(PROCESS);

        ProcessDefinition definition = processes.getProcess(PROCESS, null);
        assertThat(definition.getInputs()).extracting(input -> input.getName()).containsExactly("title", "priority");

        StartedInstance started = instances.startInstance(PROCESS, new StartRequest().inputs(Map.of("title", "Generated")), null);
        assertThat(started.getState()).isEqualTo(StartedInstance.StateEnum.RUNNING);

        PendingStep form = await().atMost(Duration.ofSeconds(10)).until(() -> steps.listPendingSteps("form", PROCESS, null, null, started.getId(), 500, null)
                .stream().filter(step -> step.getInstanceId().equals(started.getId())).findFirst().orElse(null), step -> step != null);
        assertThat(form.getStepId()).isEqualTo("read");
        assertThat(form.getOutputs()).extracting(output -> output.getName()).containsExactly("verdict");
        assertThat(form.getOutputs().get(0).getValues()).containsExactly("accept", "reject");

        Step submitted = instances.submitStep(PROCESS, started.getId(), "read", new SubmitRequest().outputs(Map.of("verdict", "accept")), null);
        assertThat(submitted.getState()).isEqualTo(Step.StateEnum.COMPLETED);

        // One read that waits for the instance to settle, as the document describes `wait`.
        Instance done = instances.getInstance(PROCESS, started.getId(), 10);
        assertThat(done.getState()).isEqualTo(Instance.StateEnum.COMPLETED);
        assertThat(done.getOutputs()).containsEntry("verdict", "accept");
        assertThat(done.getSteps()).extracting(Step::getId).containsExactly("read");
        assertThat(done.getStartedAt()).isNotNull();
    }

    @Test
    void shouldReadTheDocumentedErrorBodyFromARefusal() throws Exception {
        File file = Files.writeString(Files.createTempFile(files, "client-review", ".yaml"), FILE).toFile();
        processes.registerProcess(file);

        ApiException refused = assertThrows(ApiException.class,
                () -> instances.startInstance(PROCESS, new StartRequest().inputs(Map.of("priority", "urgent")), null));

        assertThat(refused.getCode()).isEqualTo(422);
        Error error = new ObjectMapper().readValue(refused.getResponseBody(), Error.class);
        assertThat(error.getError()).isEqualTo("invalid_inputs");
        assertThat(error.getDetails()).anySatisfy(detail -> assertThat(detail.getField()).contains("title"));
        assertThat(error.getDetails()).anySatisfy(detail -> assertThat(detail.getExpected()).containsExactly("low", "high"));
    }
}
