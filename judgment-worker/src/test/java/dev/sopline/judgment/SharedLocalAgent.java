package dev.sopline.judgment;

/** The offline model loads once per test JVM: it takes seconds, and every test reads it without changing it. */
final class SharedLocalAgent {

    private static LocalEmbeddingAgent agent;

    private SharedLocalAgent() {}

    static synchronized LocalEmbeddingAgent get() {
        if (agent == null) {
            agent = new LocalEmbeddingAgent();
        }
        return agent;
    }
}
