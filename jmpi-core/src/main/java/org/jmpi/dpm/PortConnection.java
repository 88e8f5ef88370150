package org.jmpi.dpm;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.function.BooleanSupplier;
import org.jmpi.comm.GroupCollectives;
import org.jmpi.comm.Intercomms;
import org.jmpi.runtime.Communicator;
import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.MpiError;

/**
 * MPI_Comm_accept / MPI_Comm_connect: makes an intercommunicator between two groups that share no communicator.
 *
 * <p>Only the two roots talk over the port's connection ({@link Wire}): they swap their groups' tables (identity of
 * every process, in rank order) and the acceptor's link token. Each root broadcasts the outcome to its group (an
 * error class, or the token and the remote table); every process attaches the remote processes in the
 * {@link ProcessTable} (so its TCP transport can reach them and admits their hellos); then both groups agree on a
 * context id as intercommunicator creation does, the roots swapping their groups' ANDs over the same connection
 * ({@link Intercomms#agreeAcross}). No frame travels between the groups before both have attached each other: the
 * agreement's answer reaches a group only after the other group's allreduce, which follows its attach.
 *
 * <p>While a root waits on the port (for a connector, for the acceptor's answer, for the other group's part of the
 * agreement) it drives its rank's progress every few milliseconds, as any blocking MPI call does, so that what the
 * rank sent before (a message the other side needs before it connects or accepts) still goes out.
 *
 * <p>Bounded waits: a connect to a port nobody listens on fails at once (connection refused) with ERR_PORT; a
 * connect whose partner does not answer fails after {@link #connectTimeoutMillis()} (parameter
 * {@code jmpi.dpm.timeout}, seconds, default 60); each later step of the handshake after {@link Wire#HANDSHAKE_MILLIS}.
 *
 * <p>Threading: stateless; the caller holds no lock.
 */
final class PortConnection {
    private PortConnection() {}

    /** The root's outcome of the handshake: a connection and what it learned, or an error. */
    private record Link(Socket socket, Wire wire, byte[] token, String remoteTable) {}

    static int connectTimeoutMillis() {
        String v = System.getProperty("jmpi.dpm.timeout", System.getenv("JMPI_DPM_TIMEOUT"));
        if (v != null && !v.isBlank()) {
            try {
                return (int) Math.max(1, Math.min(Integer.MAX_VALUE / 1000, Long.parseLong(v.trim()))) * 1000;
            } catch (NumberFormatException e) {
                throw new MpiError(ErrorClass.ERR_ARG, "jmpi.dpm.timeout=" + v + " is not a number of seconds");
            }
        }
        return 60_000;
    }

    /** MPI_Comm_accept at every process of {@code comm}; {@code port} matters at the root only. */
    static Communicator accept(DynamicProcesses dp, OpenPort port, String portName, Communicator comm, int root,
            BooleanSupplier giveUp) {
        Link link = null;
        MpiError failure = null;
        if (comm.rank() == root) {
            try {
                link = acceptRoot(dp, port, portName, comm, giveUp);
            } catch (MpiError e) {
                failure = e;
            }
        }
        return finish(dp, comm, root, link, failure);
    }

    /** MPI_Comm_connect at every process of {@code comm}; {@code port} matters at the root only. */
    static Communicator connect(DynamicProcesses dp, String port, Communicator comm, int root) {
        Link link = null;
        MpiError failure = null;
        if (comm.rank() == root) {
            try {
                link = connectRoot(dp, PortName.parse(port), comm);
            } catch (MpiError e) {
                failure = e;
            }
        }
        return finish(dp, comm, root, link, failure);
    }

    private static Link acceptRoot(DynamicProcesses dp, OpenPort port, String portName, Communicator comm,
            BooleanSupplier giveUp) {
        if (port == null) {
            throw new MpiError(ErrorClass.ERR_PORT, "'" + portName + "' is not an open port of this process");
        }
        OpenPort.Accepted a = port.acceptOne(giveUp, progressOf(dp));
        Socket s = a.socket();
        try {
            Wire w = a.wire();
            String remote = w.readString();
            byte[] token = org.jmpi.bootstrap.Secrets.randomBytes(PortName.TOKEN_BYTES);
            w.writeString(Wire.OK);
            w.writeBytes(token);
            w.writeString(dp.tableOf(comm));
            w.flush();
            return new Link(s, w, token, remote);
        } catch (IOException e) {
            closeQuietly(s);
            throw new MpiError(ErrorClass.ERR_PORT, "the connecting side broke off: " + e.getMessage(), e);
        }
    }

    private static Link connectRoot(DynamicProcesses dp, PortName name, Communicator comm) {
        String table = dp.tableOf(comm);
        Socket s = new Socket();
        int timeout = connectTimeoutMillis();
        try {
            s.connect(new InetSocketAddress(name.bareHost(), name.port()), timeout);
            s.setTcpNoDelay(true);
            s.setSoTimeout(timeout);
            Wire w = new Wire(s);
            w.writeString(Wire.MAGIC);
            w.writeBytes(name.token());
            w.writeString(table);
            w.flush();
            w.awaitInput(s, timeout, progressOf(dp)); // until the acceptor accepts
            String ok = w.readString();
            if (!Wire.OK.equals(ok)) {
                throw new IOException("unexpected answer '" + ok + "'");
            }
            byte[] token = w.readBytes();
            String remote = w.readString();
            s.setSoTimeout(Wire.HANDSHAKE_MILLIS);
            return new Link(s, w, token, remote);
        } catch (java.net.SocketTimeoutException e) {
            closeQuietly(s);
            throw new MpiError(ErrorClass.ERR_PORT, "no accept on port " + name.format() + " within "
                    + timeout / 1000 + " s (jmpi.dpm.timeout)", e);
        } catch (IOException e) {
            closeQuietly(s);
            throw new MpiError(ErrorClass.ERR_PORT, "cannot connect to port " + name.format() + ": "
                    + (e instanceof java.io.EOFException ? "the port was closed or refused the token" : e.toString()),
                    e);
        }
    }

    /**
     * The root's end of a spawn, once it tried to start the children: when that failed ({@code early}), tells the
     * group and throws; else accepts the children on {@code port}, giving up (ERR_SPAWN) when {@code gone} says they
     * will never connect, and runs {@code endChildren} when the accept fails. Closes the port either way.
     */
    static Communicator acceptChildren(DynamicProcesses dp, OpenPort port, MpiError early, Communicator comm,
            int root, BooleanSupplier gone, Runnable endChildren) {
        if (early != null) {
            if (port != null) {
                port.close();
            }
            return failAtRoot(dp, comm, root, early);
        }
        try {
            return accept(dp, port, port.name().format(), comm, root, gone);
        } catch (MpiError e) {
            endChildren.run();
            throw e;
        } finally {
            port.close();
        }
    }

    /** The root's part of a connect/accept/spawn that failed before any connection: tells the group, throws. */
    static Communicator failAtRoot(DynamicProcesses dp, Communicator comm, int root, MpiError failure) {
        return finish(dp, comm, root, null, failure);
    }

    /** Collective part at every process: outcome broadcast, attach, context agreement, the intercommunicator. */
    private static Communicator finish(DynamicProcesses dp, Communicator comm, int root, Link link,
            MpiError failure) {
        byte[] payload;
        int status;
        if (comm.rank() == root) {
            if (failure != null) {
                status = failure.errorClass();
                payload = failure.getMessage().getBytes(StandardCharsets.UTF_8);
            } else {
                status = 0;
                payload = (HexFormat.of().formatHex(link.token()) + "\n" + link.remoteTable())
                        .getBytes(StandardCharsets.UTF_8);
            }
        } else {
            status = 0;
            payload = null;
        }
        int[] head = GroupCollectives.bcast(comm, new int[] {status, payload == null ? 0 : payload.length}, root);
        payload = DynamicProcesses.bcastBytes(comm, payload, head[1], root);
        if (head[0] != 0) {
            if (failure != null) {
                throw failure;
            }
            throw new MpiError(head[0], new String(payload, StandardCharsets.UTF_8));
        }
        String text = new String(payload, StandardCharsets.UTF_8);
        int nl = text.indexOf('\n');
        byte[] token = HexFormat.of().parseHex(text.substring(0, nl));
        String[] lines = text.substring(nl + 1).split("\n");
        int[] remote = new int[lines.length];
        int attached = 0;
        try {
            ProcessTable.Identity[] ids = new ProcessTable.Identity[lines.length];
            for (int i = 0; i < lines.length; i++) {
                ids[i] = ProcessTable.Identity.parse(lines[i]);
                if (!dp.table().reaches(ids[i])) {
                    // both groups see it (each has the other's table), so both fail here, before any attach
                    throw new MpiError(ErrorClass.ERR_UNSUPPORTED_OPERATION, "the other job runs "
                            + (ids[i].card().startsWith(Links.JVM_CARD) ? "as threads of a JVM" : "as processes")
                            + " and this one " + (dp.runtime().threadsMode() ? "as threads of this JVM" : "as processes")
                            + ": a threads-mode job connects only to threads-mode jobs of its own JVM");
                }
            }
            for (int i = 0; i < lines.length; i++) {
                remote[i] = dp.table().attach(ids[i], token);
                attached++;
            }
            int[] local = comm.worldRanks();
            for (int r : remote) {
                for (int l : local) {
                    if (r == l) {
                        throw new MpiError(ErrorClass.ERR_COMM, "a process is in both groups (world rank " + r
                                + "): connect and accept in one group?");
                    }
                }
            }
            Wire w = link == null ? null : link.wire();
            int context = Intercomms.agreeAcross(comm, root, mine -> {
                try {
                    w.writeLongs(mine);
                    w.flush();
                    w.awaitInput(link.socket(), Wire.HANDSHAKE_MILLIS, progressOf(dp)); // the other group's allreduce
                    return w.readLongs(mine.length);
                } catch (IOException e) {
                    long[] none = new long[mine.length];
                    none[0] = 1; // "every process agreed, no slot free": ends the agreement with an error
                    return none;
                }
            });
            Communicator inter = new Communicator(context, remote, local, comm.rank());
            dp.hold(inter, remote);
            return inter;
        } catch (RuntimeException e) {
            for (int i = 0; i < attached; i++) {
                dp.table().detach(remote[i]);
            }
            if (e instanceof MpiError m && m.errorClass() == ErrorClass.ERR_INTERN) {
                throw new MpiError(ErrorClass.ERR_PORT, "the two roots lost their connection while agreeing on a "
                        + "context id (" + m.getMessage() + ")", m);
            }
            throw e;
        } finally {
            if (link != null) {
                closeQuietly(link.socket());
            }
        }
    }

    /**
     * One non-blocking progress pass of this rank, for a root that waits on a port's connection: the wait is part of
     * an MPI call, and blocking calls keep the rank's traffic moving (MPI's progress rule).
     */
    static Runnable progressOf(DynamicProcesses dp) {
        org.jmpi.runtime.Progress p = dp.runtime().progress();
        return p::poll;
    }

    static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // closed anyway
        }
    }
}
