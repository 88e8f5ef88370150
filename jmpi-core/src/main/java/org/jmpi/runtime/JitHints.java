package org.jmpi.runtime;

import java.util.List;

/**
 * JVM options that keep C2 from inlining jmpi's out-of-line halves into the small API methods that call them.
 *
 * <p>Why: {@code Comm.recv} must return a new {@code Status}. When C2 inlines {@code recv} into the caller's loop and
 * the caller ignores the result (the usual case), escape analysis removes that allocation, and a ping-pong allocates
 * nothing per round trip. C2 inlines a callee only if the callee's own compiled code is small ("already compiled into
 * a big method", {@code InlineSmallCode}). {@code recv} is hot, so C2 compiles it on its own first, and then inlines
 * its hot helpers into it, which makes it big. HotSpot's {@code @DontInline} is honoured for the JDK's own classes
 * only; for others the same hint is a {@code CompileCommand}. The methods it names end in {@code OutOfLine}; each is
 * one call per API call, so not inlining it costs a call (nanoseconds), while the allocation it saves costs a young
 * collection every few million calls and a page fault per 4 KiB of young generation before the first one.
 *
 * <p>The same split keeps {@code iSend}, {@code iRecv}, {@code Request.waitFor} and {@code Request.test} small, so
 * that a {@code Request} the program starts, waits on and drops is not allocated either (64 bytes per iSend + iRecv +
 * waitFor round trip without the hints, about 4 with them).
 *
 * <p>jmpirun adds these options to every Java rank it starts (and to its own JVM with {@code --threads}); under
 * another launcher a program adds them itself (docs/tuning.md). Without them everything works as before, with the
 * Status allocated.
 */
public final class JitHints {
    private JitHints() {}

    /** The options, first {@code quiet} (else each JVM prints the command it was given on its standard output). */
    public static final List<String> JVM_OPTIONS = List.of("-XX:CompileCommand=quiet",
            "-XX:CompileCommand=dontinline,mpi.*::*OutOfLine");
}
