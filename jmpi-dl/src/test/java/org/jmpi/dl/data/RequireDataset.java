package org.jmpi.dl.data;

import org.junit.jupiter.api.Assumptions;

/**
 * Tests that need Fashion-MNIST call {@link #check()}: they skip with the apt-get command when Debian's
 * {@code dataset-fashion-mnist} is absent, and fail instead where the environment asks for every integration test
 * to run ({@code JMPI_REQUIRE_INTEGRATION=1}, as CI sets it after installing the package).
 */
public final class RequireDataset {
    private RequireDataset() {}

    public static void check() {
        if (FashionMnist.available()) {
            return;
        }
        String why = "Fashion-MNIST is not in " + FashionMnist.defaultDirectory()
                + ": apt-get install dataset-fashion-mnist (or set " + FashionMnist.ENVIRONMENT_VARIABLE + ")";
        if ("1".equals(System.getenv("JMPI_REQUIRE_INTEGRATION"))) {
            throw new AssertionError(why + "; JMPI_REQUIRE_INTEGRATION=1 forbids skipping");
        }
        Assumptions.abort(why);
    }
}
