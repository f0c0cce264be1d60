package dev.sopline.standalone;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Tells, before anything starts or writes, which of the ports the platform listens on cannot be had, each in one line
 * that names the setting to change. A port is tried by listening on it for a moment, as the Java runtime offers no
 * other way to ask.
 */
final class PortCheck {

    /** A port and the environment variable that sets it. */
    record PortSetting(String variable, int port) {}

    private PortCheck() {}

    static List<String> problems(List<PortSetting> settings) {
        List<String> problems = new ArrayList<>();
        Map<Integer, String> claimed = new HashMap<>();
        for (PortSetting setting : settings) {
            if (setting.port() == 0) {
                continue; // the system picks a free one
            }
            String other = claimed.putIfAbsent(setting.port(), setting.variable());
            if (other != null) {
                problems.add("%s and %s are both %d: set one of them to another port".formatted(other, setting.variable(), setting.port()));
            } else if (!isFree(setting.port())) {
                problems.add("Port %d is in use: set %s to a free port".formatted(setting.port(), setting.variable()));
            }
        }
        return problems;
    }

    /**
     * Both the wildcard and the loopback address: the web server listens on the first, the embedded broker on the
     * second, and some systems let a process take one while another holds the other.
     */
    static boolean isFree(int port) {
        return canListen(new InetSocketAddress(port)) && canListen(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
    }

    private static boolean canListen(InetSocketAddress address) {
        try (ServerSocket socket = new ServerSocket()) {
            // As the web server and the broker do, so a port still in TIME_WAIT from the last run counts as free.
            socket.setReuseAddress(true);
            socket.bind(address);
            return true;
        } catch (IOException taken) {
            return false;
        }
    }
}
