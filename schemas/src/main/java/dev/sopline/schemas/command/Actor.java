package dev.sopline.schemas.command;

/**
 * Who caused a change, as the instance's history shows it. The gateway sets it from the authenticated token, never
 * from the request body, so a client cannot act in another's name.
 *
 * @param type {@code token}, {@code worker}, {@code agent}, {@code callback}, {@code timer} or {@code engine}
 * @param id the token id, worker id, model, or callback id; null for {@code timer} and {@code engine}
 * @param name the token's name; null otherwise
 */
public record Actor(String type, String id, String name) {

    public static final String TOKEN = "token";
    public static final String WORKER = "worker";
    public static final String AGENT = "agent";
    public static final String CALLBACK = "callback";
    public static final String TIMER = "timer";
    public static final String ENGINE = "engine";

    public static Actor token(String id, String name) {
        return new Actor(TOKEN, id, name);
    }

    public static final Actor BY_TIMER = new Actor(TIMER, null, null);
    public static final Actor BY_ENGINE = new Actor(ENGINE, null, null);
}
