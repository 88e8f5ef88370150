package org.jmpi.launcher;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.jmpi.bootstrap.pmi.Pmi1Message;

/**
 * The deciding party of the ranks' fault-tolerant agreements (ULFM's agree and shrink) under {@code jmpirun
 * --continue-on-failure}: ranks send {@code cmd=jmpi_agree key=K members=a,b,c flag=F ctx=0|1} on their notice
 * channel, their proxy forwards it here, and once every member of agreement K has either contributed or is known to
 * have failed, the decision {@code cmd=jmpi_agreed key=K flag=AND failed=x,y|- ctx=C|-1} goes to every host, whose
 * proxy pushes it to every rank's notice channel (ranks that do not wait for K ignore it). Because this one object
 * decides, every survivor gets the same answer, whichever ranks fail meanwhile; the failed set is the members known
 * dead when the decision is made. Fresh context ids (for the communicator of a shrink) come from a range that
 * communicator allocation never uses (from {@link #FIRST_CONTEXT}, four per shrink, never reused).
 *
 * <p>Threading: every method is synchronized; {@code publish} is called with the lock held and must not block for
 * long (it queues a control message per host).
 */
final class AgreementCoordinator {
    /** First context id handed out (beyond the 4096 slots of four contexts of jmpi's context allocation). */
    static final int FIRST_CONTEXT = 1 << 29;

    private final Consumer<String> publish;
    private final Set<Integer> failed = new HashSet<>();
    private final Map<String, Pending> pending = new HashMap<>();
    private int nextContext = FIRST_CONTEXT;

    private static final class Pending {
        final int[] members;
        final Map<Integer, Integer> flags = new HashMap<>();
        boolean wantContext;

        Pending(int[] members) {
            this.members = members;
        }
    }

    /** @param publish sends one decision line to every rank of the job */
    AgreementCoordinator(Consumer<String> publish) {
        this.publish = publish;
    }

    /** A rank's contribution, as the line it sent; a malformed line is ignored (the rank then waits until killed). */
    synchronized void contribute(int rank, String line) {
        Pmi1Message m;
        int[] members;
        try {
            m = Pmi1Message.parse(line);
            members = java.util.Arrays.stream(m.get("members").split(",")).mapToInt(Integer::parseInt).toArray();
        } catch (RuntimeException e) {
            return;
        }
        String key = m.get("key");
        if (key == null || !m.command().equals("jmpi_agree")) {
            return;
        }
        Pending p = pending.computeIfAbsent(key, k -> new Pending(members));
        p.flags.put(rank, m.intValue("flag", 0));
        p.wantContext |= m.intValue("ctx", 0) == 1;
        decideIfComplete(key, p);
    }

    /** A rank of the job failed: agreements that waited only for it can be decided. */
    synchronized void failed(int rank) {
        if (!failed.add(rank)) {
            return;
        }
        for (Map.Entry<String, Pending> e : new ArrayList<>(pending.entrySet())) {
            decideIfComplete(e.getKey(), e.getValue());
        }
    }

    private void decideIfComplete(String key, Pending p) {
        int flag = -1;
        List<Integer> dead = new ArrayList<>();
        for (int w : p.members) {
            Integer f = p.flags.get(w);
            if (failed.contains(w)) {
                dead.add(w);
            } else if (f == null) {
                return; // a live member has not contributed yet
            }
            if (f != null) {
                flag &= f;
            }
        }
        pending.remove(key);
        int ctx = -1;
        if (p.wantContext) {
            ctx = nextContext;
            nextContext += 4;
        }
        StringBuilder d = new StringBuilder();
        for (int w : dead) {
            d.append(d.isEmpty() ? "" : ",").append(w);
        }
        publish.accept("cmd=jmpi_agreed key=" + key + " flag=" + flag + " failed=" + (d.isEmpty() ? "-" : d)
                + " ctx=" + ctx);
    }
}
