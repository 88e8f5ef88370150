package org.jmpi.datatype;

/** Receives the contiguous runs of user memory behind a range of a packed stream, in packed order. */
@FunctionalInterface
public interface RunVisitor {
    /**
     * @param memOffset byte offset of the run in user memory
     * @param streamOffset position of the run's first byte in the packed stream
     * @param length bytes in the run
     */
    void run(long memOffset, long streamOffset, long length);
}
