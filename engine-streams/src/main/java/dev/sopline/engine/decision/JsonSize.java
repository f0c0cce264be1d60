package dev.sopline.engine.decision;

import dev.sopline.schemas.json.Json;
import java.io.OutputStream;

/** The size of a value as the UTF-8 JSON the engine stores it as, counted without keeping the bytes. */
public final class JsonSize {

    private JsonSize() {}

    public static long of(Object value) {
        if (value == null) {
            return 0;
        }
        Counter counter = new Counter();
        Json.mapper().writeValue(counter, value);
        return counter.count;
    }

    private static final class Counter extends OutputStream {
        private long count;

        @Override
        public void write(int b) {
            count++;
        }

        @Override
        public void write(byte[] bytes, int offset, int length) {
            count += length;
        }
    }
}
