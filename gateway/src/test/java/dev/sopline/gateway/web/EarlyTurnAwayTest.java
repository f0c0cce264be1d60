package dev.sopline.gateway.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import dev.sopline.gateway.api.InstanceController;
import dev.sopline.gateway.api.ProcessController;
import dev.sopline.gateway.api.RequestScope;
import java.lang.reflect.Method;
import java.util.Arrays;
import dev.sopline.gateway.command.CommandsInFlightFullException;
import dev.sopline.gateway.command.WaitsForTheEngine;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/** A write whose workspace has no room left among the commands waiting is answered before its body is parsed or its handler runs. */
class EarlyTurnAwayTest {

    private final Set<String> full = Set.of("team-full");
    private final List<String> turnedAway = new CopyOnWriteArrayList<>();
    private final Writes writes = new Writes();
    private final MockMvc mvc = MockMvcBuilders.standaloneSetup(writes)
            .setControllerAdvice(new ApiErrorHandler())
            .addInterceptors(new EarlyTurnAway(workspace -> {
                boolean away = full.contains(workspace);
                if (away) {
                    turnedAway.add(workspace);
                }
                return away;
            }, new RequestScope(null)::workspace))
            .build();

    @Test
    void shouldAnswerAWriteOfAWorkspaceWithoutRoomAsTheCommandBusDoesWithoutParsingItsBodyOrRunningItsHandler() throws Exception {
        mvc.perform(post("/start").requestAttr(RequestScope.WORKSPACE_ATTRIBUTE, "team-full")
                        .contentType(MediaType.APPLICATION_JSON).content("not json at all"))
                .andExpect(status().isServiceUnavailable())
                .andExpect(header().string("Retry-After", "1"))
                .andExpect(content().contentType(MediaType.APPLICATION_JSON))
                .andExpect(jsonPath("$.error").value("unavailable"))
                .andExpect(jsonPath("$.message").value(CommandsInFlightFullException.ANSWER));

        assertThat(writes.handled).as("handlers run").isEmpty();
        assertThat(turnedAway).as("counted as turned away").containsExactly("team-full");
    }

    @Test
    void shouldLetAWriteOfAWorkspaceWithRoomThroughToItsHandler() throws Exception {
        mvc.perform(post("/start").requestAttr(RequestScope.WORKSPACE_ATTRIBUTE, "team-free")
                        .contentType(MediaType.APPLICATION_JSON).content("{\"inputs\": {}}"))
                .andExpect(status().isOk());
        mvc.perform(post("/start").requestAttr(RequestScope.WORKSPACE_ATTRIBUTE, "team-free")
                        .contentType(MediaType.APPLICATION_JSON).content("not json at all"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.error").value("invalid_payload"));

        assertThat(writes.handled).containsExactly("start");
        assertThat(turnedAway).isEmpty();
    }

    @Test
    void shouldLeaveRequestsThatDoNotWaitForTheEngineAlone() throws Exception {
        mvc.perform(post("/heartbeat").requestAttr(RequestScope.WORKSPACE_ATTRIBUTE, "team-full"))
                .andExpect(status().isOk());

        assertThat(writes.handled).containsExactly("heartbeat");
        assertThat(turnedAway).isEmpty();
    }

    @Test
    void shouldLookBeforeEveryWriteOfTheApiThatWaitsForTheEngine() {
        assertThat(namesOfHandlersThatWait(InstanceController.class)).containsExactlyInAnyOrder("start", "cancel", "retry", "submit");
        assertThat(namesOfHandlersThatWait(ProcessController.class)).containsExactly("register");
    }

    private static List<String> namesOfHandlersThatWait(Class<?> controller) {
        return Arrays.stream(controller.getDeclaredMethods())
                .filter(method -> method.isAnnotationPresent(WaitsForTheEngine.class))
                .map(Method::getName)
                .toList();
    }

    @RestController
    static class Writes {

        final List<String> handled = new CopyOnWriteArrayList<>();

        @PostMapping("/start")
        @WaitsForTheEngine
        String start(@RequestBody Map<String, Object> body) {
            handled.add("start");
            return "started";
        }

        @PostMapping("/heartbeat")
        String heartbeat() {
            handled.add("heartbeat");
            return "noted";
        }
    }
}
