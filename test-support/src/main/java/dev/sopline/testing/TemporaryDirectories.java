package dev.sopline.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.common.utils.Utils;
import org.springframework.boot.SpringApplication;

/**
 * Data directories for a Spring application that outlives the test class that starts it: the context the test framework
 * caches for every class with the same configuration, or a platform started once per test JVM. JUnit's {@code @TempDir}
 * is deleted when its test or class ends, while such an application still runs and writes into it; it is closed only
 * as the JVM exits. The directories are deleted then, by one Spring Boot shutdown handler, which runs after Spring
 * Boot has closed its application contexts (a plain JVM shutdown hook would run beside that close, while the engine
 * still flushes its stores into the directory).
 */
public final class TemporaryDirectories {

    private static final Set<Path> HANDED_OUT = ConcurrentHashMap.newKeySet();
    private static final AtomicBoolean HANDLER_ADDED = new AtomicBoolean();

    private TemporaryDirectories() {}

    /** A new directory in the system's temporary directory, deleted with everything in it when the JVM exits. */
    public static Path deletedAtExit(String prefix) {
        try {
            Path directory = Files.createTempDirectory(prefix);
            HANDED_OUT.add(directory);
            if (HANDLER_ADDED.compareAndSet(false, true)) {
                SpringApplication.getShutdownHandlers().add(TemporaryDirectories::deleteAll);
            }
            return directory;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Deletes a directory with everything in it, now: for one whose user (a test driver, a browser) has just been closed. */
    public static void deleteNow(Path directory) {
        try {
            Utils.delete(directory.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void deleteAll() {
        for (Path directory : HANDED_OUT) {
            try {
                Utils.delete(directory.toFile());
            } catch (IOException e) {
                System.err.println("Could not delete the temporary directory " + directory + ": " + e);
            }
        }
    }
}
