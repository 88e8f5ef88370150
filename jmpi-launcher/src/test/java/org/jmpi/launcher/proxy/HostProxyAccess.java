package org.jmpi.launcher.proxy;

import java.util.List;

/** Test access to {@link HostProxy}'s package-private CPU list helpers. */
public final class HostProxyAccess {
    private HostProxyAccess() {}

    public static List<Integer> allowedCpus() {
        return HostProxy.allowedCpus();
    }

    public static List<Integer> parseCpuList(String list) {
        return HostProxy.parseCpuList(list);
    }
}
