package dev.sopline.gateway.api;

import dev.sopline.schemas.command.Actor;
import dev.sopline.schemas.instance.HistoryEntry;
import java.util.LinkedHashMap;
import java.util.Map;

/** History entries on the wire (CONTRACT section 11): {@code from} always present, null on creation; no internal sequence. */
final class HistoryViews {

    private HistoryViews() {}

    static Map<String, Object> entry(HistoryEntry entry) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("at", entry.at().toString());
        view.put("kind", entry.kind());
        if (entry.stepId() != null) {
            view.put("step_id", entry.stepId());
        }
        view.put("from", entry.from());
        view.put("to", entry.to());
        if (entry.attempt() != null) {
            view.put("attempt", entry.attempt());
        }
        view.put("by", by(entry.by()));
        if (entry.detail() != null) {
            view.put("detail", entry.detail());
        }
        return view;
    }

    private static Map<String, Object> by(Actor actor) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("type", actor.type());
        if (actor.id() != null) {
            view.put("id", actor.id());
        }
        if (actor.name() != null) {
            view.put("name", actor.name());
        }
        return view;
    }
}
