package org.jmpi.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.atomic.AtomicReference;
import org.jmpi.shared.Syscall;
import org.junit.jupiter.api.Test;

/** The parent-death signal, armed through the shared system call downcall ({@link Syscall}). */
class LifelineTest {
    private static final long PR_GET_PDEATHSIG = 2;
    /** Ignored by default: harmless should this test JVM's parent end while it is armed. */
    private static final int SIGCHLD = 17;

    @Test
    void theSignalIsArmedThroughTheSharedSyscallAndReadsBack() throws Exception {
        assumeTrue(Syscall.PRCTL > 0 && Syscall.handle() != null, "Linux on x86-64, aarch64 or riscv64");
        AtomicReference<Object> result = new AtomicReference<>();
        // the setting belongs to the thread that makes it: a thread of its own, which disarms before it ends
        Thread t = Thread.ofPlatform().start(() -> {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment out = arena.allocate(ValueLayout.JAVA_INT);
                int armed = Lifeline.armParentDeathSignal(SIGCHLD);
                long got = (long) Syscall.handle().invokeExact(Syscall.PRCTL, PR_GET_PDEATHSIG, out.address(), 0L,
                        0L, 0L, 0L);
                int read = out.get(ValueLayout.JAVA_INT, 0);
                int disarmed = Lifeline.armParentDeathSignal(0);
                long gotAfter = (long) Syscall.handle().invokeExact(Syscall.PRCTL, PR_GET_PDEATHSIG, out.address(),
                        0L, 0L, 0L, 0L);
                result.set(new int[] {armed, (int) got, read, disarmed, (int) gotAfter,
                        out.get(ValueLayout.JAVA_INT, 0)});
            } catch (Throwable e) {
                result.set(e);
            }
        });
        t.join();
        assertThat(result.get()).isInstanceOf(int[].class);
        // armed, read back as SIGCHLD; disarmed, read back as 0
        assertThat((int[]) result.get()).containsExactly(0, 0, SIGCHLD, 0, 0, 0);
    }

    @Test
    void armedOnceTheDowncallIsLinkedNotAfterTheWholeDelay() throws Exception {
        assumeTrue(Syscall.handle() != null, "Linux on x86-64, aarch64 or riscv64");
        java.util.concurrent.CountDownLatch armed = new java.util.concurrent.CountDownLatch(1);
        long start = System.nanoTime();
        Thread t = Lifeline.armLater(java.util.concurrent.TimeUnit.HOURS.toNanos(1), armed::countDown);
        // linked (above): the arming does not wait for its deadline
        assertThat(armed.await(20, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        t.join();
        assertThat(System.nanoTime() - start).isLessThan(java.util.concurrent.TimeUnit.SECONDS.toNanos(20));
        assertThat(Lifeline.armDelayMillis(java.util.Map.of())).isEqualTo(Lifeline.DEFAULT_ARM_DELAY_MILLIS)
                .isEqualTo(10_000);
    }

    @Test
    void aBadSignalIsRefusedByTheKernelNotMisread() throws Throwable {
        assumeTrue(Syscall.PRCTL > 0 && Syscall.handle() != null, "Linux on x86-64, aarch64 or riscv64");
        // the argument travels as a full 64-bit value: 1 << 32 | 9 is no signal, where a 32-bit truncation would
        // make it SIGKILL
        long rc = (long) Syscall.handle().invokeExact(Syscall.PRCTL, 1L, (1L << 32) | 9L, 0L, 0L, 0L, 0L);
        assertThat(rc).isEqualTo(-1L);
    }

    @Test
    void futexThroughTheSharedSyscall() throws Throwable {
        assumeTrue(Syscall.FUTEX > 0 && Syscall.handle() != null, "Linux on x86-64, aarch64 or riscv64");
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment word = arena.allocate(ValueLayout.JAVA_INT);
            word.set(ValueLayout.JAVA_INT, 0, 7);
            // FUTEX_WAIT on a word that does not hold the expected value returns at once (EAGAIN)
            long wait = (long) Syscall.handle().invokeExact(Syscall.FUTEX, word.address(), 0L, 8L, 0L, 0L, 0L);
            assertThat(wait).isEqualTo(-1L);
            // FUTEX_WAKE with nobody asleep wakes no one
            long woken = (long) Syscall.handle().invokeExact(Syscall.FUTEX, word.address(), 1L, 1L, 0L, 0L, 0L);
            assertThat(woken).isZero();
        }
    }
}
