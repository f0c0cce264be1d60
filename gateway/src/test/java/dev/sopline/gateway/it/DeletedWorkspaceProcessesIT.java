package dev.sopline.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.f4b6a3.ulid.UlidCreator;
import dev.sopline.gateway.command.CommandBus;
import dev.sopline.gateway.engine.EngineAccess;
import dev.sopline.gateway.it.WorkspaceIsolationIT.Workspace;
import dev.sopline.schemas.command.CommandReply;
import dev.sopline.schemas.command.StartInstance;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The processes of a deleted workspace are retired in the engine. A schedule's fire is a start with origin
 * {@code schedule} that the engine writes to its own command topic; a cron fires once a minute at best, so instead of
 * waiting for one, the test sends such starts straight to the command topic, as the engine or a gateway would.
 */
class DeletedWorkspaceProcessesIT extends GatewayTestBase {

    private static final String EVERY_MINUTE = """
            engine: "0.1"
            process:
              name: minutely
              version: "1.0"
              trigger:
                type: schedule
                cron: "* * * * *"
              steps:
                - id: look
                  type: form
                  outputs:
                    - name: done
            """;

    @Autowired
    EngineAccess engine;

    @Autowired
    CommandBus commands;

    @Test
    void shouldRefuseEveryStartOfAProcessOfADeletedWorkspace() {
        Workspace doomed = WorkspaceIsolationIT.createWorkspace(this, "scheduled");
        assertThat(doomed.admin().register(EVERY_MINUTE).status()).isEqualTo(201);

        assertThat(api().delete("/workspaces/" + doomed.name()).status()).isEqualTo(204);

        List<StartInstance> starts = List.of(
                start(doomed.name(), StartInstance.SCHEDULE, "1.0"),
                start(doomed.name(), StartInstance.TRIGGER, "1.0"),
                start(doomed.name(), StartInstance.API, null));
        for (StartInstance start : starts) {
            CommandReply reply = commands.send(start);
            assertThat(reply.status()).as("%s start: %s", start.origin(), reply.message()).isEqualTo(404);
            assertThat(reply.error()).isEqualTo("not_found");
            assertThat(engine.queries().instance(doomed.name(), start.instanceId())).isEmpty();
        }

        // A trigger into the deleted workspace is refused before its body is read: the head alone, and the body never
        // comes; the answer and the closed connection come within the read timeout (2 s here).
        try (RawHttp http = new RawHttp(port)) {
            long started = System.nanoTime();
            RawHttp.Answer answer = http.head("POST /sop/triggers/" + doomed.name() + "/minutely HTTP/1.1", "Content-Type: application/json",
                    "Content-Length: 1000").answer();
            http.awaitClose();
            assertThat(answer.status()).isEqualTo(404);
            assertThat(answer.body()).contains("\"error\":\"not_found\"", "deleted");
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(2));
        }
    }

    @Test
    void shouldRetireAProcessWhoseRegistrationArrivesAfterItsWorkspaceWasDeleted() throws Exception {
        Workspace doomed = WorkspaceIsolationIT.createWorkspace(this, "late-register");
        String boundary = "----late";
        byte[] body = ("--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"p.yaml\"\r\n"
                + "Content-Type: application/yaml\r\n\r\n" + EVERY_MINUTE + "\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8);
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            // The token is checked as the headers arrive; the file is still on its way when the workspace is deleted.
            out.write(("POST /sop/processes/register HTTP/1.1\r\nHost: localhost\r\nX-SOP-Token: " + doomed.token()
                    + "\r\nContent-Type: multipart/form-data; boundary=" + boundary + "\r\nContent-Length: " + body.length
                    + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(body, 0, 10);
            out.flush();
            Thread.sleep(300);
            assertThat(api().delete("/workspaces/" + doomed.name()).status()).isEqualTo(204);
            out.write(body, 10, body.length - 10);
            out.flush();

            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

            assertThat(answer).startsWith("HTTP/1.1 401").contains("was deleted while process 'minutely' was being registered");
        }
        assertThat(engine.queries().process(doomed.name(), "minutely")).hasValueSatisfying(process -> assertThat(process.retired()).isTrue());
        CommandReply scheduled = commands.send(start(doomed.name(), StartInstance.SCHEDULE, "1.0"));
        assertThat(scheduled.status()).as("a schedule fire of it").isEqualTo(404);
    }

    private StartInstance start(String workspace, String origin, String seenVersion) {
        return new StartInstance(UUID.randomUUID().toString(), workspace, UlidCreator.getMonotonicUlid().toString(), "minutely",
                Map.of(), null, origin, seenVersion);
    }
}
