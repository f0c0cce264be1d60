package dev.sopline.judgment;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.model.embedding.EmbeddingModel;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The embeddings of the option texts seen last. They are the same for every case of a step, and embedding them again
 * for each case would triple the offline agent's work. Bounded, least recently used first out; a small map in the
 * JDK's access order does this without a cache library. Keyed by the text's SHA-256, so that the texts themselves,
 * which a process file makes as long as it likes, are not kept.
 */
final class RecentEmbeddings {

    private static final int CAPACITY = 512;

    private final EmbeddingModel model;
    private final Map<String, Embedding> recent = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Embedding> eldest) {
            return size() > CAPACITY;
        }
    };

    RecentEmbeddings(EmbeddingModel model) {
        this.model = model;
    }

    Embedding of(String text) {
        String key = PromptHash.of(List.of(text));
        synchronized (recent) {
            Embedding known = recent.get(key);
            if (known != null) {
                return known;
            }
        }
        Embedding embedded = model.embed(text).content();
        synchronized (recent) {
            recent.put(key, embedded);
        }
        return embedded;
    }
}
