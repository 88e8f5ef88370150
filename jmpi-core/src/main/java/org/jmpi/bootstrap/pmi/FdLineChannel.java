package org.jmpi.bootstrap.pmi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.nio.charset.StandardCharsets;

/**
 * Lines over a file descriptor this process inherited ({@code PMI_FD}: one end of a socketpair from Hydra or
 * Slurm). The JDK cannot wrap an arbitrary descriptor number as a stream, and {@code /proc/self/fd/N} cannot be
 * opened for a socket, so this calls libc {@code read}, {@code write} and {@code close} through
 * {@code java.lang.foreign}. Run with {@code --enable-native-access=ALL-UNNAMED} to avoid the JDK's warning.
 *
 * <p>Threading: not thread-safe; {@link Pmi1Bootstrap} serialises all calls.
 */
@SuppressWarnings("restricted")
final class FdLineChannel implements LineChannel {
    private static final int EINTR = 4;
    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO =
            CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final MethodHandle READ;
    private static final MethodHandle WRITE;
    private static final MethodHandle CLOSE;
    private static final MethodHandle SHUTDOWN;
    private static final int SHUT_RDWR = 2;

    static {
        Linker linker = Linker.nativeLinker();
        SymbolLookup libc = linker.defaultLookup();
        Linker.Option errno = Linker.Option.captureCallState("errno");
        FunctionDescriptor io = FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG);
        READ = linker.downcallHandle(libc.find("read").orElseThrow(), io, errno);
        WRITE = linker.downcallHandle(libc.find("write").orElseThrow(), io, errno);
        CLOSE = linker.downcallHandle(libc.find("close").orElseThrow(), FunctionDescriptor.of(JAVA_INT, JAVA_INT));
        SHUTDOWN = linker.downcallHandle(libc.find("shutdown").orElseThrow(),
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT));
    }

    private final int fd;
    private final Arena arena = Arena.ofAuto();
    private final MemorySegment state = arena.allocate(CALL_STATE);
    private final MemorySegment readBuffer = arena.allocate(4096);
    private MemorySegment writeBuffer = arena.allocate(1024);
    private int readPos;
    private int readEnd;
    private volatile boolean closed;

    FdLineChannel(int fd) {
        if (fd < 0) {
            throw new IllegalArgumentException("bad file descriptor " + fd);
        }
        this.fd = fd;
    }

    @Override
    public void writeLine(String line) throws IOException {
        write((line + "\n").getBytes(StandardCharsets.US_ASCII));
    }

    @Override
    public void write(byte[] bytes) throws IOException {
        if (writeBuffer.byteSize() < bytes.length) {
            writeBuffer = arena.allocate(bytes.length);
        }
        MemorySegment.copy(bytes, 0, writeBuffer, ValueLayout.JAVA_BYTE, 0, bytes.length);
        long done = 0;
        while (done < bytes.length) {
            long n = call(WRITE, writeBuffer.asSlice(done), bytes.length - done);
            if (n < 0) {
                throw new IOException("write(PMI_FD=" + fd + ") failed, errno " + errno());
            }
            done += n;
        }
    }

    @Override
    public String readLine() throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream(128);
        while (true) {
            if (readPos == readEnd) {
                long n = call(READ, readBuffer, readBuffer.byteSize());
                if (n < 0) {
                    throw new IOException("read(PMI_FD=" + fd + ") failed, errno " + errno());
                }
                if (n == 0) {
                    return buf.size() == 0 ? null : buf.toString(StandardCharsets.US_ASCII);
                }
                readPos = 0;
                readEnd = (int) n;
            }
            byte b = readBuffer.get(ValueLayout.JAVA_BYTE, readPos++);
            if (b == '\n') {
                String s = buf.toString(StandardCharsets.US_ASCII);
                return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
            }
            if (buf.size() >= MAX_LINE) {
                throw new IOException("PMI server sent a line longer than " + MAX_LINE + " bytes");
            }
            buf.write(b);
        }
    }

    @Override
    public byte[] readExactly(int n) throws IOException {
        byte[] out = new byte[n];
        int got = 0;
        while (got < n) {
            if (readPos == readEnd) {
                long r = call(READ, readBuffer, readBuffer.byteSize());
                if (r < 0) {
                    throw new IOException("read(PMI_FD=" + fd + ") failed, errno " + errno());
                }
                if (r == 0) {
                    if (got == 0) {
                        return null;
                    }
                    throw new IOException("the PMI server closed PMI_FD=" + fd + " in the middle of a message");
                }
                readPos = 0;
                readEnd = (int) r;
            }
            int k = Math.min(n - got, readEnd - readPos);
            MemorySegment.copy(readBuffer, ValueLayout.JAVA_BYTE, readPos, out, got, k);
            readPos += k;
            got += k;
        }
        return out;
    }

    /**
     * A daemon thread waits in {@code poll(POLLRDHUP)} on the descriptor (which reports the peer's close, not data, so
     * it takes nothing from the caller) and runs {@code onEnd} when the peer closed it. It wakes once a second to see
     * whether this side closed the descriptor (whose number may then name another file); it never runs
     * {@code onEnd} after {@link #close()}.
     */
    @Override
    public void watchEnd(Runnable onEnd) {
        Thread.ofPlatform().daemon().name("jmpi-pmi-fd-watch").start(() -> {
            MethodHandle poll;
            try {
                Linker linker = Linker.nativeLinker();
                poll = linker.downcallHandle(linker.defaultLookup().find("poll").orElseThrow(),
                        FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT));
            } catch (RuntimeException | LinkageError e) {
                return; // no poll: the parent-death signal remains
            }
            try (Arena a = Arena.ofConfined()) {
                MemorySegment pfd = a.allocate(8, 4);
                while (!closed) {
                    pfd.set(JAVA_INT, 0, fd);
                    pfd.set(ValueLayout.JAVA_SHORT, 4, POLLRDHUP);
                    pfd.set(ValueLayout.JAVA_SHORT, 6, (short) 0);
                    int n = (int) poll.invokeExact(pfd, 1L, 1000);
                    short revents = pfd.get(ValueLayout.JAVA_SHORT, 6);
                    if (closed || n > 0 && (revents & POLLNVAL) != 0) {
                        return;
                    }
                    if (n > 0 && (revents & (POLLRDHUP | POLLHUP | POLLERR)) != 0) {
                        onEnd.run();
                        return;
                    }
                }
            } catch (Throwable t) {
                // stop watching
            }
        });
    }

    private static final short POLLERR = 0x8;
    private static final short POLLHUP = 0x10;
    private static final short POLLNVAL = 0x20;
    private static final short POLLRDHUP = 0x2000;

    /** Calls read or write, retrying when a signal interrupted it; returns the count or -1 (errno in state). */
    private long call(MethodHandle h, MemorySegment buffer, long length) throws IOException {
        while (true) {
            long n;
            try {
                n = (long) h.invokeExact(state, fd, buffer, length);
            } catch (Throwable t) {
                throw new IOException("native call on PMI_FD failed", t);
            }
            if (n >= 0 || errno() != EINTR) {
                return n;
            }
        }
    }

    private int errno() {
        return (int) ERRNO.get(state, 0L);
    }

    /**
     * {@code shutdown(fd, SHUT_RDWR)}: a {@code read} blocked on the socket in another thread returns 0 (closing the
     * descriptor would not wake it). The descriptor stays open until {@link #close()}.
     */
    @Override
    public void abandon() throws IOException {
        if (closed) {
            return;
        }
        try {
            int rc = (int) SHUTDOWN.invokeExact(fd, SHUT_RDWR);
            if (rc != 0) {
                throw new IOException("shutdown(PMI_FD=" + fd + ") failed");
            }
        } catch (IOException e) {
            throw e;
        } catch (Throwable t) {
            throw new IOException("native shutdown on PMI_FD failed", t);
        }
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            int rc = (int) CLOSE.invokeExact(fd);
            if (rc != 0) {
                throw new IOException("close(PMI_FD=" + fd + ") failed");
            }
        } catch (IOException e) {
            throw e;
        } catch (Throwable t) {
            throw new IOException("native close on PMI_FD failed", t);
        }
    }
}
