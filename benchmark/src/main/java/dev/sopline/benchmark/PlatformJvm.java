package dev.sopline.benchmark;

import com.sun.tools.attach.VirtualMachine;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import javax.management.JMX;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import jdk.management.jfr.FlightRecorderMXBean;

/**
 * The platform's JVM seen through its own management agent: the CPU of each of its threads, its Kafka clients' and
 * broker's metrics, and flight recordings. The agent is started by attaching to the process, as {@code jcmd} does: it
 * listens only to local connections of the same user, so the platform needs no JMX port or flag.
 */
final class PlatformJvm implements AutoCloseable {

    private final JMXConnector connector;
    private final MBeanServerConnection server;
    private final com.sun.management.ThreadMXBean threads;

    private PlatformJvm(JMXConnector connector) throws IOException {
        this.connector = connector;
        this.server = connector.getMBeanServerConnection();
        this.threads = ManagementFactory.newPlatformMXBeanProxy(server, ManagementFactory.THREAD_MXBEAN_NAME,
                com.sun.management.ThreadMXBean.class);
    }

    static PlatformJvm attach(long pid) throws Exception {
        VirtualMachine vm = VirtualMachine.attach(String.valueOf(pid));
        try {
            return new PlatformJvm(JMXConnectorFactory.connect(new JMXServiceURL(vm.startLocalManagementAgent())));
        } finally {
            vm.detach();
        }
    }

    MBeanServerConnection server() {
        return server;
    }

    /** CPU time so far of every live Java thread, by thread id, with its name. GC and JIT threads are not Java threads. */
    Map<Long, ThreadCpu> threadCpu() {
        long[] ids = threads.getAllThreadIds();
        long[] cpu = threads.getThreadCpuTime(ids);
        java.lang.management.ThreadInfo[] infos = threads.getThreadInfo(ids);
        Map<Long, ThreadCpu> byId = new HashMap<>();
        for (int i = 0; i < ids.length; i++) {
            if (infos[i] != null && cpu[i] >= 0) {
                byId.put(ids[i], new ThreadCpu(infos[i].getThreadName(), cpu[i]));
            }
        }
        return byId;
    }

    record ThreadCpu(String name, long cpuNanos) {}

    /** A flight recording with the JDK's {@code profile} settings (method samples every 10 ms, allocation, locks). */
    Recording startRecording(String name) throws Exception {
        FlightRecorderMXBean recorder = JMX.newMXBeanProxy(server, new ObjectName("jdk.management.jfr:type=FlightRecorder"), FlightRecorderMXBean.class);
        long id = recorder.newRecording();
        recorder.setPredefinedConfiguration(id, "profile");
        recorder.setRecordingOptions(id, Map.of("name", name, "disk", "true"));
        recorder.startRecording(id);
        return new Recording(recorder, id);
    }

    static final class Recording {
        private final FlightRecorderMXBean recorder;
        private final long id;

        private Recording(FlightRecorderMXBean recorder, long id) {
            this.recorder = recorder;
            this.id = id;
        }

        /** Stops the recording and has the platform write it to {@code file} (same machine). */
        void stopAndSave(Path file) throws IOException {
            recorder.stopRecording(id);
            recorder.copyTo(id, file.toAbsolutePath().toString());
            recorder.closeRecording(id);
        }
    }

    @Override
    public void close() throws IOException {
        connector.close();
    }
}
