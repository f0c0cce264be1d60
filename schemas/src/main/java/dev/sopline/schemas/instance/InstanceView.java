package dev.sopline.schemas.instance;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * An instance as the API and the {@code sop.events} topic show it.
 *
 * @param id ULID of the instance
 * @param workspace workspace that owns it
 * @param process process name
 * @param version process version the instance is pinned to
 * @param state current state
 * @param inputs validated start inputs
 * @param outputs instance outputs, once completed
 * @param error why the instance failed
 * @param startedAt when it started
 * @param completedAt when it reached a terminal state
 * @param steps every declared step in order, {@code pending} until reached
 */
public record InstanceView(
        String id,
        String workspace,
        String process,
        String version,
        InstanceState state,
        Map<String, Object> inputs,
        Map<String, Object> outputs,
        StepError error,
        Instant startedAt,
        Instant completedAt,
        List<StepView> steps) {}
