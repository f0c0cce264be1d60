package dev.sopline.gateway.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.engine.api.query.EngineReader;
import dev.sopline.gateway.engine.EngineAccess;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Callback ids the engine does not know: a few lookups wait for the index, the rest answer at once. */
class CallbackLookupTest {

    @Test
    void shouldLetOnlyABoundedNumberOfLookupsOfUnknownIdsWaitAtOnce() throws Exception {
        Map<Thread, AtomicInteger> lookups = new ConcurrentHashMap<>();
        EngineReader nothingKnown = (EngineReader) Proxy.newProxyInstance(EngineReader.class.getClassLoader(), new Class<?>[] {EngineReader.class},
                (proxy, method, args) -> {
                    lookups.computeIfAbsent(Thread.currentThread(), ignored -> new AtomicInteger()).incrementAndGet();
                    return Optional.empty();
                });
        EngineAccess engine = new EngineAccess(null, null, null, null) {
            @Override
            public EngineReader queries() {
                return nothingKnown;
            }
        };
        CallbackController controller = new CallbackController(engine, null);
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> callers = new ArrayList<>();
        for (int i = 0; i < 24; i++) {
            Thread caller = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                assertThat(controller.findOwner("01JZZZZZZZZZZZZZZZZZZZZZZZ")).isEmpty();
            });
            caller.start();
            callers.add(caller);
        }

        go.countDown();
        for (Thread caller : callers) {
            caller.join(10_000);
        }

        long waited = lookups.values().stream().filter(count -> count.get() > 1).count();
        long answeredAtOnce = lookups.values().stream().filter(count -> count.get() == 1).count();
        assertThat(waited).isBetween(1L, (long) CallbackController.WAITING_LOOKUPS);
        assertThat(answeredAtOnce).isEqualTo(24 - waited);
    }
}
