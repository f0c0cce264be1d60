package dev.sopline.testing;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.slf4j.LoggerFactory;

/** What one logger (and those below it) logs while open: for tests of what the platform or a worker tells its operator. */
public final class CapturedLog implements AutoCloseable {

    private final Logger logger;
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

    private CapturedLog(Logger logger) {
        this.logger = logger;
        appender.start();
        logger.addAppender(appender);
    }

    public static CapturedLog of(Class<?> type) {
        return new CapturedLog((Logger) LoggerFactory.getLogger(type));
    }

    /** Every logger of the JVM, Kafka's clients included. */
    public static CapturedLog ofAll() {
        return new CapturedLog((Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME));
    }

    public List<ILoggingEvent> events() {
        return List.copyOf(appender.list);
    }

    /** The messages logged at {@code level} or above. */
    public List<String> messagesAtLeast(Level level) {
        return events().stream().filter(event -> event.getLevel().isGreaterOrEqual(level)).map(ILoggingEvent::getFormattedMessage).toList();
    }

    @Override
    public void close() {
        logger.detachAppender(appender);
    }
}
