package dev.sopline.engine.runtime;

import java.util.Map;
import org.apache.kafka.streams.state.RocksDBConfigSetter;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Cache;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;

/**
 * A memory budget for each RocksDB store of the engine, sized for its stores rather than for one store alone. Kafka
 * Streams gives every store of every partition a block cache of 50 MB and up to three memtables of 16 MB; the engine
 * has 11 stores on each of its partitions (6 by default) and two global ones, so its native memory under load is
 * bounded only far above the machine's share. Each store here keeps a budget of its own, so no store's writes make
 * another flush: a budget shared by every store did, and doubled the CPU per instance (see docs/decisions.md).
 */
public final class RocksDbStoreBudget implements RocksDBConfigSetter {

    /** Memtable size at which RocksDB flushes one to disk. */
    static final long WRITE_BUFFER_BYTES = 4L * 1024 * 1024;
    /** One memtable taking writes, one being flushed. */
    static final int WRITE_BUFFERS = 2;
    /** Recently read data blocks of this store. */
    static final long BLOCK_CACHE_BYTES = 4L * 1024 * 1024;

    private Cache blockCache;

    @Override
    public void setConfig(String storeName, Options options, Map<String, Object> configs) {
        options.setWriteBufferSize(WRITE_BUFFER_BYTES);
        options.setMaxWriteBufferNumber(WRITE_BUFFERS);
        blockCache = new LRUCache(BLOCK_CACHE_BYTES);
        BlockBasedTableConfig table = (BlockBasedTableConfig) options.tableFormatConfig();
        table.setBlockCache(blockCache);
        options.setTableFormatConfig(table);
    }

    @Override
    public void close(String storeName, Options options) {
        // The cache is native memory of this store alone; Kafka Streams closes the options, not what they point to.
        blockCache.close();
    }
}
