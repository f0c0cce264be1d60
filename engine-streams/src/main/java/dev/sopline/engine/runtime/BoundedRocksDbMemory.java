package dev.sopline.engine.runtime;

import java.util.Map;
import org.apache.kafka.streams.state.RocksDBConfigSetter;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Cache;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.WriteBufferManager;

/**
 * One memory budget for every RocksDB store of the engine's JVM. By default each store of each partition has its own
 * block cache (50 MB), three memtables of 16 MB and index and filter blocks outside any cache, so the engine's native
 * memory grows with stores × partitions under load. Here they share one block cache that also holds the memtables
 * (through the write-buffer manager) and the index and filter blocks: the bounded-memory set-up of the Kafka Streams
 * memory-management guide, which a config setter is the only way to apply.
 */
public final class BoundedRocksDbMemory implements RocksDBConfigSetter {

    /** Block cache, memtables and index and filter blocks of all stores together. */
    static final long TOTAL_BYTES = 64L * 1024 * 1024;
    /** Of {@link #TOTAL_BYTES}, what the memtables may take before RocksDB flushes them. */
    static final long MEMTABLE_BYTES = 16L * 1024 * 1024;
    /** Share of the cache kept for index and filter blocks, which every read needs. */
    private static final double INDEX_AND_FILTER_RATIO = 0.1;

    static {
        // The cache is native: the library must be loaded before it, whichever of this class and the stores comes first.
        RocksDB.loadLibrary();
    }

    // Static: Kafka Streams makes one setter per store, and the budget is the JVM's. Never closed, as it lives as long
    // as the JVM's stores may.
    static final Cache CACHE = new LRUCache(TOTAL_BYTES, -1, false, INDEX_AND_FILTER_RATIO);
    private static final WriteBufferManager WRITE_BUFFERS = new WriteBufferManager(MEMTABLE_BYTES, CACHE);

    @Override
    public void setConfig(String storeName, Options options, Map<String, Object> configs) {
        BlockBasedTableConfig table = (BlockBasedTableConfig) options.tableFormatConfig();
        table.setBlockCache(CACHE);
        table.setCacheIndexAndFilterBlocks(true);
        table.setCacheIndexAndFilterBlocksWithHighPriority(true);
        table.setPinTopLevelIndexAndFilter(true);
        options.setWriteBufferManager(WRITE_BUFFERS);
        options.setTableFormatConfig(table);
    }

    @Override
    public void close(String storeName, Options options) {
        // The cache and the write-buffer manager are shared by every store: closing them here would pull them from
        // under the others.
    }
}
