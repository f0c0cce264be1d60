package dev.sopline.engine.runtime;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.rocksdb.NativeLibraryLoader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads RocksDB's native library from the engine's state directory. Left to itself, RocksDB copies the library
 * (about 15 MB) to a new file with a random name in the system's temporary directory at every start, and deletes it
 * only when the JVM exits normally: each crash or {@code kill -9} leaves one behind, and an engine that keeps crashing
 * fills {@code /tmp}, often memory. Given a directory, RocksDB's own loader writes one file of a fixed name there and
 * replaces it at the next start, which is what {@code ROCKSDB_SHAREDLIB_DIR} does; a process cannot set its own
 * environment, so the engine hands RocksDB the directory before Kafka Streams opens the first store.
 */
final class RocksDbLibrary {

    static final String DIRECTORY = "rocksdb-library";
    private static final Logger LOG = LoggerFactory.getLogger(RocksDbLibrary.class);

    private RocksDbLibrary() {
    }

    /** Loads the library into {@code stateDir}/{@value #DIRECTORY}; once per JVM, later calls change nothing. */
    static void loadInto(Path stateDir) {
        Path directory = stateDir.resolve(DIRECTORY).toAbsolutePath();
        try {
            Files.createDirectories(directory);
            NativeLibraryLoader.getInstance().loadLibrary(directory.toString());
        } catch (IOException | RuntimeException | UnsatisfiedLinkError e) {
            // RocksDB then loads it as it would have: through the temporary directory.
            LOG.warn("RocksDB's library could not be written to {} ({}); it goes to the temporary directory instead", directory, e.toString());
        }
    }
}
