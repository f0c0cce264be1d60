package dev.sopline.engine.decision;

import com.github.f4b6a3.ulid.UlidFactory;
import java.security.SecureRandom;

/**
 * ULIDs whose random part comes from {@link SecureRandom}: a webhook step's callback id is the only credential its
 * third party holds, so it must not be guessable.
 */
public final class UlidGenerator implements IdGenerator {

    private final UlidFactory factory = UlidFactory.newInstance(new SecureRandom());

    @Override
    public String newId() {
        return factory.create().toString();
    }
}
