package dev.sopline.gateway.workspace;

import dev.sopline.engine.api.query.EngineReader;
import dev.sopline.engine.api.query.InstanceFilter;
import dev.sopline.engine.api.query.Page;
import dev.sopline.engine.api.view.ProcessVersions;
import dev.sopline.gateway.api.DefinitionVisibility;
import dev.sopline.gateway.auth.TokenRegistry;
import dev.sopline.gateway.command.CommandBus;
import dev.sopline.gateway.engine.EngineAccess;
import dev.sopline.gateway.webhook.WebhookRegistry;
import dev.sopline.gateway.webhook.WebhookSubscription;
import dev.sopline.schemas.command.CancelInstance;
import dev.sopline.schemas.command.CommandReply;
import dev.sopline.schemas.command.RetireProcess;
import dev.sopline.schemas.instance.InstanceState;
import dev.sopline.schemas.instance.InstanceView;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Deletes a workspace: first the mark that makes it deleted (durable, so its tokens are refused on every replica from
 * then on), then what follows from it: its tokens revoked, its processes retired in the engine (their schedules fire
 * no more and no start of them is accepted), its unfinished instances cancelled, its webhook subscriptions removed,
 * and last the mark that it is all done. Retiring comes before cancelling, so a start already on its way is either
 * refused or lands in time for a cancelling pass. Each part can run again without harm, so a deletion
 * that stopped half-way (a gateway crash, the engine not answering) is finished by deleting again.
 *
 * <p>A step that a worker is running when its instance is cancelled ends there: the worker's result is no longer
 * accepted (its token gives 401 over HTTP; over Kafka the engine ignores a result for a step that is not active).
 */
@Component
public class WorkspaceDeletion {

    private static final Logger LOG = LoggerFactory.getLogger(WorkspaceDeletion.class);
    private static final int PAGE = 500;
    /** A start accepted just before the deletion can land after a pass; a few passes catch those. */
    private static final int MAX_PASSES = 3;
    private static final List<InstanceState> UNFINISHED = List.of(InstanceState.PENDING, InstanceState.RUNNING, InstanceState.WAITING);

    private final WorkspaceRegistry workspaces;
    private final TokenRegistry tokens;
    private final WebhookRegistry webhooks;
    private final EngineAccess engine;
    private final CommandBus commands;
    private final DefinitionVisibility visibility;

    public WorkspaceDeletion(WorkspaceRegistry workspaces, TokenRegistry tokens, WebhookRegistry webhooks, EngineAccess engine,
                             CommandBus commands, DefinitionVisibility visibility) {
        this.visibility = visibility;
        this.workspaces = workspaces;
        this.tokens = tokens;
        this.webhooks = webhooks;
        this.engine = engine;
        this.commands = commands;
    }

    /**
     * Deletes the workspace, or finishes its earlier deletion.
     *
     * @throws RuntimeException when the engine cannot be reached; the workspace stays deleted and a repeat finishes it
     */
    public void delete(WorkspaceRecord workspace) {
        Instant now = Instant.now();
        WorkspaceRecord deleted = workspace.isDeleted() ? workspace : workspace.deleted(now);
        workspaces.save(deleted);
        tokens.active(deleted.name(), now).forEach(token -> tokens.save(token.revoked(now)));
        int retired = retireProcesses(deleted.name());
        int cancelled = cancelUnfinishedInstances(deleted.name());
        webhooks.of(deleted.name()).stream().map(WebhookSubscription::id).forEach(webhooks::delete);
        workspaces.save(deleted.cleared(Instant.now()));
        LOG.info("Workspace '{}' deleted: its tokens revoked, {} processes retired, {} instances cancelled", deleted.name(), retired,
                cancelled);
    }

    /**
     * Retires every process of the workspace and waits for each answer, so the deletion is not done before the
     * engine holds the retirements. Retiring one again (a repeated deletion) changes nothing.
     *
     * @throws IllegalStateException when the engine refuses one; a repeat of the deletion tries again
     */
    private int retireProcesses(String workspace) {
        List<ProcessVersions> processes = engine.queries().processes(workspace);
        for (ProcessVersions process : processes) {
            CommandReply reply = commands.send(new RetireProcess(UUID.randomUUID().toString(), workspace, process.name()));
            if (!reply.isSuccess()) {
                throw new IllegalStateException("Expected the engine to retire process '%s' of workspace '%s', but it answered %d %s"
                        .formatted(process.name(), workspace, reply.status(), reply.error()));
            }
            // The mark reaches the replicas' global stores a moment after the answer: a start decided elsewhere in that
            // moment would still begin. This replica waits to see it, as a registration's answer does.
            visibility.awaitRetired(workspace, process.name());
        }
        return processes.size();
    }

    private int cancelUnfinishedInstances(String workspace) {
        EngineReader reader = engine.queries();
        int cancelled = 0;
        for (int pass = 0; pass < MAX_PASSES; pass++) {
            int thisPass = 0;
            for (InstanceState state : UNFINISHED) {
                String cursor = null;
                do {
                    Page<InstanceView> page = reader.instances(workspace, new InstanceFilter(null, state), cursor, PAGE);
                    for (InstanceView instance : page.items()) {
                        thisPass += cancel(instance) ? 1 : 0;
                    }
                    cursor = page.nextCursor();
                } while (cursor != null);
            }
            cancelled += thisPass;
            if (thisPass == 0) {
                break;
            }
        }
        return cancelled;
    }

    /** Whether the engine cancelled it; one that finished meanwhile is refused with 422 and needs nothing more. */
    private boolean cancel(InstanceView instance) {
        CommandReply reply = commands.send(new CancelInstance(UUID.randomUUID().toString(), instance.workspace(), instance.id(), instance.process()));
        return reply.isSuccess();
    }
}
