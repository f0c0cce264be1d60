package dev.sopline.gateway.api;

import dev.sopline.engine.api.query.StateUnavailableException;
import dev.sopline.gateway.engine.EngineAccess;
import dev.sopline.engine.api.view.ProcessVersions;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.springframework.stereotype.Component;

/**
 * Read-your-writes for registrations (and retirements): a registered version reaches the engines' global store a moment after the
 * engine replies, so the answer waits until this replica sees it and an immediate start or schema read finds it.
 */
@Component
public class DefinitionVisibility {

    private static final Duration LIMIT = Duration.ofSeconds(5);

    private final EngineAccess engine;

    public DefinitionVisibility(EngineAccess engine) {
        this.engine = engine;
    }

    public void awaitVisible(String workspace, String process, String version) {
        awaitUntil(() -> engine.queries().process(workspace, process).flatMap(versions -> versions.version(version)).isPresent());
    }

    /** The same for a retirement: once this replica sees it, starts it decides of the process are refused. */
    public void awaitRetired(String workspace, String process) {
        awaitUntil(() -> engine.queries().process(workspace, process).map(ProcessVersions::retired).orElse(false));
    }

    private void awaitUntil(BooleanSupplier seen) {
        long deadline = System.nanoTime() + LIMIT.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                if (seen.getAsBoolean()) {
                    return;
                }
            } catch (StateUnavailableException unreadable) {
                // A replica failing over: the write is taken; keep looking until the limit, then answer anyway.
            }
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
