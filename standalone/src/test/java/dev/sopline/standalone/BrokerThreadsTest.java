package dev.sopline.standalone;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BrokerThreadsTest {

    @Test
    void aSmallMachineGetsOneNetworkThreadAndTwoRequestHandlers() {
        assertThat(BrokerThreads.forCores(1)).isEqualTo(new BrokerThreads(1, 2));
        assertThat(BrokerThreads.forCores(2)).isEqualTo(new BrokerThreads(1, 2));
    }

    @Test
    void theThreadsFollowTheCoresUpToKafkasDefaults() {
        assertThat(BrokerThreads.forCores(4)).isEqualTo(new BrokerThreads(2, 4));
        assertThat(BrokerThreads.forCores(6)).isEqualTo(new BrokerThreads(3, 6));
        assertThat(BrokerThreads.forCores(8)).isEqualTo(new BrokerThreads(3, 8));
        assertThat(BrokerThreads.forCores(64)).isEqualTo(new BrokerThreads(3, 8));
    }
}
