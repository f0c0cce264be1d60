package dev.sopline.gateway.it;

import dev.sopline.engine.api.DecisionListener;
import dev.sopline.schemas.command.CommandReply;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.springframework.boot.test.context.TestConfiguration;

/**
 * One more listener beside the gateway's own, as a bean of the test context: what the engine in the gateway's JVM told
 * of as it decided.
 */
@TestConfiguration
class HeardDecisions implements DecisionListener {

    private final Queue<CommandReply> replies = new ConcurrentLinkedQueue<>();
    private final Set<String> changedInstances = ConcurrentHashMap.newKeySet();

    @Override
    public void replied(CommandReply reply) {
        replies.add(reply);
    }

    @Override
    public void instanceChanged(String instanceId) {
        changedInstances.add(instanceId);
    }

    boolean heardReply(int status, String naming) {
        return replies.stream().anyMatch(reply -> reply.status() == status && String.valueOf(reply.body()).contains(naming));
    }

    boolean heardChangeOf(String instanceId) {
        return changedInstances.contains(instanceId);
    }
}
