package dev.sable.bench;

/** JVM options every benchmark fork runs with. */
final class Bench
{
    /**
     * Agrona's bounds checks off, as the reference's own benchmarks run its codecs (read once by
     * UnsafeBuffer, so per fork; the MemorySegment codecs do not use Agrona, Sable's Agrona
     * flavour runs both with them off and, in forks of its own, on).
     */
    static final String NO_BOUNDS_CHECKS = "-Dagrona.disable.bounds.checks=true";
    /** Agrona 1.22 reads and writes through sun.misc.Unsafe, which JDK 25 warns about otherwise. */
    static final String UNSAFE_ALLOWED = "--sun-misc-unsafe-memory-access=allow";

    private Bench()
    {
    }
}
