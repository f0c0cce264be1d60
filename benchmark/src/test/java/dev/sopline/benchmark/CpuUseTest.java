package dev.sopline.benchmark;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CpuUseTest {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void tellsTheEmbeddedBrokersShareFromTheEnginesAndTheJvmsOwnThreadsFromTheRest() {
        CpuUse.Snapshot before = new CpuUse.Snapshot(0, Duration.ofSeconds(10), Map.of(
                1L, new PlatformJvm.ThreadCpu("data-plane-kafka-request-handler-0", 1 * SECOND),
                2L, new PlatformJvm.ThreadCpu("sop-engine-1f2e-StreamThread-1", 1 * SECOND)),
                Map.of(PlatformProcess.JIT, Duration.ofSeconds(4), PlatformProcess.GC, Duration.ofSeconds(1)), Duration.ofSeconds(3));
        CpuUse.Snapshot after = new CpuUse.Snapshot(10 * SECOND, Duration.ofSeconds(15), Map.of(
                1L, new PlatformJvm.ThreadCpu("data-plane-kafka-request-handler-0", 3 * SECOND),
                2L, new PlatformJvm.ThreadCpu("sop-engine-1f2e-StreamThread-1", 2 * SECOND),
                // Started while measuring: all of its time counts.
                3L, new PlatformJvm.ThreadCpu("http-nio-8080-exec-7", SECOND / 2)),
                Map.of(PlatformProcess.JIT, Duration.ofMillis(4_800), PlatformProcess.GC, Duration.ofMillis(1_200)), Duration.ofSeconds(4));

        Map<String, Object> cpu = CpuUse.between(before, after, 1_000);

        assertThat(cpu.get("platform_process")).isEqualTo(Map.of("cpu_s_per_1000_instances", 5.0, "pct_of_a_core", 50.0));
        assertThat(cpu.get("broker")).isEqualTo(Map.of("cpu_s_per_1000_instances", 2.0, "pct_of_a_core", 20.0));
        assertThat(cpu.get("load_generator")).isEqualTo(Map.of("cpu_s_per_1000_instances", 1.0, "pct_of_a_core", 10.0));
        assertThat((Map<String, Object>) cpu.get("platform_parts"))
                .containsEntry("engine stream threads", Map.of("cpu_s_per_1000_instances", 1.0, "pct_of_a_core", 10.0))
                .containsEntry("gateway HTTP threads", Map.of("cpu_s_per_1000_instances", 0.5, "pct_of_a_core", 5.0))
                .containsEntry(PlatformProcess.JIT, Map.of("cpu_s_per_1000_instances", 0.8, "pct_of_a_core", 8.0))
                .containsEntry(PlatformProcess.GC, Map.of("cpu_s_per_1000_instances", 0.2, "pct_of_a_core", 2.0))
                .containsEntry("platform JVM: other and ended threads", Map.of("cpu_s_per_1000_instances", 0.5, "pct_of_a_core", 5.0));
    }

    @Test
    void readsAThreadsTicksAfterANameThatHoldsSpacesAndBrackets() {
        String stat = "4242 (C2 CompilerThre) S 1 4200 4200 0 -1 4194368 1000 0 0 0 737 41 0 0 20 0 60 0 5000 0 0";

        assertThat(PlatformProcess.ticksOf(stat)).isEqualTo(778);
        assertThat(PlatformProcess.ticksOf(stat.replace("(C2 CompilerThre)", "(a) b (c)"))).isEqualTo(778);
        assertThat(PlatformProcess.jvmThreadGroup("C2 CompilerThre")).isEqualTo(PlatformProcess.JIT);
        assertThat(PlatformProcess.jvmThreadGroup("GC Thread#1")).isEqualTo(PlatformProcess.GC);
        assertThat(PlatformProcess.jvmThreadGroup("http-nio-8080-e")).isNull();
    }
}
