package org.jmpi.launcher;

/**
 * A host of a job and how many ranks it should take before others get more (its slots).
 *
 * @param name the host name or address, as ssh is to be given it
 * @param slots ranks the host takes per round of placement, at least 1
 * @param slotsGiven whether the slot count came from the user (a hostfile {@code slots=N} or {@code host:N}), as
 *     opposed to a default
 */
public record HostSpec(String name, int slots, boolean slotsGiven) {
    public HostSpec {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a host needs a name");
        }
        if (slots < 1) {
            throw new IllegalArgumentException("host " + name + " needs at least one slot, not " + slots);
        }
    }

    /** A host with one slot that nobody chose. */
    public static HostSpec of(String name) {
        return new HostSpec(name, 1, false);
    }

    /** A host with a chosen slot count. */
    public static HostSpec of(String name, int slots) {
        return new HostSpec(name, slots, true);
    }

    @Override
    public String toString() {
        return name + ":" + slots;
    }
}
