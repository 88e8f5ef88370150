package org.jmpi.launcher.ranks;

/** A main for threads mode: prints one line (each rank thread has its own copy of this class). */
public final class ThreadsHello {
    private ThreadsHello() {
    }

    public static void main(String[] args) {
        System.out.println("hello from a thread, loader " + ThreadsHello.class.getClassLoader().getName());
    }
}
