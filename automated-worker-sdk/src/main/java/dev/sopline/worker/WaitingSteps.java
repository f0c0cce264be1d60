package dev.sopline.worker;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The steps a Kafka worker has taken from its partitions and not started yet, with their records' bytes. Either one
 * line, first come first served, or, for a worker that is fair across workspaces ({@link ReadAhead#fair()}), one
 * line per workspace, taken in turn: a step of a workspace that waits behind a thousand of another's is the next one
 * started, not the thousand-and-first. Used by the poll thread only.
 */
final class WaitingSteps {

    private record Waiting(RunningStep step, int bytes) {
    }

    private final boolean fair;
    /** Lines by workspace (one line, under the key "", when not fair), in the order they are served. */
    private final Map<String, ArrayDeque<Waiting>> lines = new HashMap<>();
    private final ArrayDeque<String> turns = new ArrayDeque<>();
    private int size;
    private long bytes;

    WaitingSteps(boolean fair) {
        this.fair = fair;
    }

    void add(RunningStep step, int recordBytes) {
        String line = lineOf(step);
        ArrayDeque<Waiting> waiting = lines.get(line);
        if (waiting == null) {
            waiting = new ArrayDeque<>();
            lines.put(line, waiting);
            turns.addLast(line);
        }
        waiting.addLast(new Waiting(step, recordBytes));
        size++;
        bytes += recordBytes;
    }

    /** The step to start next, left waiting; null when none waits. */
    RunningStep peek() {
        String line = turns.peekFirst();
        return line == null ? null : lines.get(line).peekFirst().step();
    }

    /** Takes the step {@link #peek()} named; its workspace's next step then waits for the others' turns. */
    RunningStep poll() {
        String line = turns.pollFirst();
        if (line == null) {
            return null;
        }
        ArrayDeque<Waiting> waiting = lines.get(line);
        Waiting taken = waiting.pollFirst();
        if (waiting.isEmpty()) {
            lines.remove(line);
        } else {
            turns.addLast(line);
        }
        size--;
        bytes -= taken.bytes();
        return taken.step();
    }

    void removeIf(Predicate<RunningStep> condition) {
        for (String line : turns.toArray(String[]::new)) {
            ArrayDeque<Waiting> waiting = lines.get(line);
            waiting.removeIf(each -> {
                if (condition.test(each.step())) {
                    size--;
                    bytes -= each.bytes();
                    return true;
                }
                return false;
            });
            if (waiting.isEmpty()) {
                lines.remove(line);
                turns.remove(line);
            }
        }
    }

    void clear() {
        lines.clear();
        turns.clear();
        size = 0;
        bytes = 0;
    }

    boolean isEmpty() {
        return size == 0;
    }

    int size() {
        return size;
    }

    /** The bytes of the waiting steps' records, what holding them costs roughly. */
    long bytes() {
        return bytes;
    }

    private String lineOf(RunningStep step) {
        if (!fair) {
            return "";
        }
        String workspace = step.ready().workspace();
        return workspace == null ? "" : workspace;
    }
}
