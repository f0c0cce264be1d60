package dev.sopline.benchmark;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CpuUseTest {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void tellsTheEmbeddedBrokersShareFromTheEnginesAndCountsWhatNoJavaThreadUsedAsTheJvms() {
        CpuUse.Snapshot before = new CpuUse.Snapshot(0, Duration.ofSeconds(10), Map.of(
                1L, new PlatformJvm.ThreadCpu("data-plane-kafka-request-handler-0", 1 * SECOND),
                2L, new PlatformJvm.ThreadCpu("sop-engine-1f2e-StreamThread-1", 1 * SECOND)), Duration.ofSeconds(3));
        CpuUse.Snapshot after = new CpuUse.Snapshot(10 * SECOND, Duration.ofSeconds(15), Map.of(
                1L, new PlatformJvm.ThreadCpu("data-plane-kafka-request-handler-0", 3 * SECOND),
                2L, new PlatformJvm.ThreadCpu("sop-engine-1f2e-StreamThread-1", 2 * SECOND),
                // Started while measuring: all of its time counts.
                3L, new PlatformJvm.ThreadCpu("http-nio-8080-exec-7", SECOND / 2)), Duration.ofSeconds(4));

        Map<String, Object> cpu = CpuUse.between(before, after, 1_000);

        assertThat(cpu.get("platform_process")).isEqualTo(Map.of("cpu_s_per_1000_instances", 5.0, "pct_of_a_core", 50.0));
        assertThat(cpu.get("broker")).isEqualTo(Map.of("cpu_s_per_1000_instances", 2.0, "pct_of_a_core", 20.0));
        assertThat(cpu.get("load_generator")).isEqualTo(Map.of("cpu_s_per_1000_instances", 1.0, "pct_of_a_core", 10.0));
        assertThat((Map<String, Object>) cpu.get("platform_parts"))
                .containsEntry("engine stream threads", Map.of("cpu_s_per_1000_instances", 1.0, "pct_of_a_core", 10.0))
                .containsEntry("gateway HTTP threads", Map.of("cpu_s_per_1000_instances", 0.5, "pct_of_a_core", 5.0))
                .containsEntry("platform JVM: GC, JIT and ended threads", Map.of("cpu_s_per_1000_instances", 1.5, "pct_of_a_core", 15.0));
    }
}
