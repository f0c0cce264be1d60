package dev.sopline.judgment;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.model.embedding.EmbeddingModel;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The embeddings of the option texts seen last. They are the same for every case of a step, and embedding them again
 * for each case would triple the offline agent's work. Bounded, least recently used first out; a small map in the
 * JDK's access order does this without a cache library.
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
        synchronized (recent) {
            Embedding known = recent.get(text);
            if (known != null) {
                return known;
            }
        }
        Embedding embedded = model.embed(text).content();
        synchronized (recent) {
            recent.put(text, embedded);
        }
        return embedded;
    }
}
