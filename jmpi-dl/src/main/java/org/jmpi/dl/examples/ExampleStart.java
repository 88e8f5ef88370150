package org.jmpi.dl.examples;

import java.io.IOException;
import java.util.function.Function;
import java.util.function.ToIntFunction;
import mpi.MPI;
import mpi.MPIException;
import org.jmpi.dl.data.Dataset;
import org.jmpi.dl.data.DatasetMissingException;
import org.jmpi.dl.data.FashionMnist;

/**
 * The common start of the training examples (this module's and jmpi-dl-djl's): MPI with every thread level, the
 * options parsed, Fashion-MNIST loaded, and a clear exit instead of a stack trace when either fails.
 */
public final class ExampleStart {
    private ExampleStart() {}

    /** The parsed options and the data (the training set already cut to the options' limit). */
    public record Loaded<S>(S settings, Dataset train, Dataset test) {}

    /**
     * Asks MPI for {@link MPI#THREAD_MULTIPLE} (the reducer's thread calls MPI too), makes waits in MPI sleep soon
     * rather than poll between yields for long unless {@code jmpi.yield.iterations} / {@code JMPI_YIELD_ITERATIONS}
     * says otherwise (each rank has two busy threads: a rank waiting in MPI may take the core another rank's
     * back-propagation needs), parses the options and loads the data. Bad options or missing data: rank 0 prints the
     * message (with the apt-get command for the data), MPI is finalised and the JVM exits with status 2.
     *
     * @param program    the name printed before a message
     * @param parse      parses the options, throwing IllegalArgumentException with a message when they are wrong
     * @param trainLimit the number of training images the options ask for
     */
    public static <S> Loaded<S> start(String program, String[] args, Function<String[], S> parse,
            ToIntFunction<S> trainLimit) throws MPIException {
        if (System.getProperty("jmpi.yield.iterations") == null && System.getenv("JMPI_YIELD_ITERATIONS") == null) {
            System.setProperty("jmpi.yield.iterations", "50");
        }
        MPI.InitThread(args, MPI.THREAD_MULTIPLE);
        try {
            S s = parse.apply(args);
            Dataset train = FashionMnist.train();
            Dataset test = FashionMnist.test();
            int limit = trainLimit.applyAsInt(s);
            return new Loaded<>(s, limit < train.size() ? train.slice(0, limit) : train, test);
        } catch (DatasetMissingException | IllegalArgumentException e) {
            exit(program, e.getMessage());
        } catch (IOException e) {
            exit(program, "cannot read Fashion-MNIST: " + e.getMessage());
        }
        throw new AssertionError("unreachable");
    }

    private static void exit(String program, String message) throws MPIException {
        if (MPI.COMM_WORLD.getRank() == 0) {
            System.err.println(program + ": " + message);
        }
        MPI.Finalize();
        System.exit(2);
    }
}
