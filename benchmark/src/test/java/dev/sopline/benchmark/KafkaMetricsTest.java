package dev.sopline.benchmark;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.util.Map;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.StandardMBean;
import org.junit.jupiter.api.Test;

class KafkaMetricsTest {

    /** The shape of the broker's meter: only its count is read. */
    public interface CountMBean {
        long getCount();
    }

    private static StandardMBean meter(long count) throws Exception {
        return new StandardMBean((CountMBean) () -> count, CountMBean.class);
    }

    @Test
    void readsTheBrokersErrorAnswersByRequestAndErrorAndLeavesOutTheAnswersWithout() throws Exception {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        ObjectName concurrent = new ObjectName("kafka.network:type=RequestMetrics,name=ErrorsPerSec,request=AddPartitionsToTxn,error=CONCURRENT_TRANSACTIONS");
        ObjectName none = new ObjectName("kafka.network:type=RequestMetrics,name=ErrorsPerSec,request=AddPartitionsToTxn,error=NONE");
        server.registerMBean(meter(7), concurrent);
        server.registerMBean(meter(900), none);
        try {
            assertThat(KafkaMetrics.brokerErrors(server)).isEqualTo(Map.of("AddPartitionsToTxn CONCURRENT_TRANSACTIONS", 7L));
        } finally {
            server.unregisterMBean(concurrent);
            server.unregisterMBean(none);
        }
    }

    @Test
    void keepsWhatGrewBetweenTwoReadingsAndCountsANewKeyFromZero() {
        Map<String, Long> before = Map.of("Produce CONCURRENT_TRANSACTIONS", 5L, "Fetch NOT_LEADER_OR_FOLLOWER", 2L);
        Map<String, Long> after = Map.of("Produce CONCURRENT_TRANSACTIONS", 12L, "Fetch NOT_LEADER_OR_FOLLOWER", 2L,
                "AddPartitionsToTxn CONCURRENT_TRANSACTIONS", 3L);

        assertThat(KafkaMetrics.increase(before, after))
                .isEqualTo(Map.of("Produce CONCURRENT_TRANSACTIONS", 7L, "AddPartitionsToTxn CONCURRENT_TRANSACTIONS", 3L));
    }
}
