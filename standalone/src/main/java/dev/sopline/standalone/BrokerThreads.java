package dev.sopline.standalone;

/**
 * The embedded broker's network threads and request handlers. Kafka's defaults (3 and 8) are sized for a broker alone
 * on its machine. Embedded, it shares the cores with the engine, the gateway and the workers that run beside them, and
 * on a small machine the extra threads cost CPU instead of adding any: each request hands over from a network thread
 * to a request handler and back, and a thread that parks between requests must be woken for the next one, where a
 * busy one takes it up itself. So, up to Kafka's defaults, one request handler per core and one network thread per
 * two cores; at least two handlers, so that one slow request never holds up every other.
 */
record BrokerThreads(int network, int requestHandlers) {

    static BrokerThreads forCores(int cores) {
        return new BrokerThreads(Math.max(1, Math.min(3, cores / 2)), Math.max(2, Math.min(8, cores)));
    }

    static BrokerThreads ofThisMachine() {
        return forCores(Runtime.getRuntime().availableProcessors());
    }
}
