package dev.sable.interop.alloc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Encoding and decoding with Sable's codecs allocates nothing in steady state: the bytes the
 * current thread allocates (com.sun.management.ThreadMXBean) over many iterations, after a
 * warm-up long enough for the JIT compilers, are 0, for the benchmarks' Car and MarketData
 * messages (caller-supplied destinations for text and var data), over heap and off-heap memory.
 */
class AllocationTest
{
    private static final int WARM_UP = 200_000;
    private static final int MEASURED = 100_000;
    private static final int ROUNDS = 3;
    private static final com.sun.management.ThreadMXBean THREADS =
        (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();

    private static Arena arena;
    /** Where the control test's allocations escape to. */
    static volatile Object escaped;

    @BeforeAll
    static void enableAllocationCounting()
    {
        assertTrue(THREADS.isThreadAllocatedMemorySupported(), "this JVM does not count allocated bytes");
        THREADS.setThreadAllocatedMemoryEnabled(true);
        arena = Arena.ofShared();
        // the meter's first reads allocate (lazy initialisation): warm it up, then check that
        // reading it allocates nothing
        for (int i = 0; i < 10_000; i++)
        {
            THREADS.getCurrentThreadAllocatedBytes();
        }
        final long first = THREADS.getCurrentThreadAllocatedBytes();
        assertEquals(first, THREADS.getCurrentThreadAllocatedBytes(), "reading the meter allocates");
    }

    @AfterAll
    static void closeArena()
    {
        arena.close();
    }

    /**
     * Bytes allocated by the current thread over MEASURED runs of work, after WARM_UP runs: in
     * steady state, that is in the first of up to ROUNDS such measurements that reads 0, else the
     * last. (A deoptimisation during a measurement re-materialises the objects the JIT had
     * scalar-replaced, which counts as allocation once; code that allocates allocates in every
     * round.)
     */
    private static long allocatedBytes(final LongSupplier work)
    {
        long sink = 0;
        for (int i = 0; i < WARM_UP; i++)
        {
            sink += work.getAsLong();
        }
        long allocated = -1;
        for (int round = 0; round < ROUNDS && allocated != 0; round++)
        {
            final long before = THREADS.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < MEASURED; i++)
            {
                sink += work.getAsLong();
            }
            allocated = THREADS.getCurrentThreadAllocatedBytes() - before;
        }
        assertTrue(sink != 0, "the work returned nothing");
        return allocated;
    }

    private static MemorySegment heap()
    {
        return MemorySegment.ofArray(new byte[1024]);
    }

    private static MemorySegment offHeap()
    {
        return arena.allocate(1024, 8);
    }

    @Test
    void theMeterSeesAllocations()
    {
        // the control: work that allocates is seen, so the zeros below mean something
        final long allocated = allocatedBytes(() ->
        {
            final byte[] bytes = new byte[64];
            escaped = bytes;
            return bytes.length;
        });
        assertTrue(allocated >= (long)MEASURED * 64, "allocations not counted: " + allocated);
    }

    @Test
    void carEncodeHeap()
    {
        carEncode(heap());
    }

    @Test
    void carEncodeOffHeap()
    {
        carEncode(offHeap());
    }

    @Test
    void carDecodeHeap()
    {
        carDecode(heap());
    }

    @Test
    void carDecodeOffHeap()
    {
        carDecode(offHeap());
    }

    @Test
    void marketDataEncodeHeap()
    {
        marketDataEncode(heap());
    }

    @Test
    void marketDataEncodeOffHeap()
    {
        marketDataEncode(offHeap());
    }

    @Test
    void marketDataDecodeHeap()
    {
        marketDataDecode(heap());
    }

    @Test
    void marketDataDecodeOffHeap()
    {
        marketDataDecode(offHeap());
    }

    private static void carEncode(final MemorySegment segment)
    {
        final SableCar car = new SableCar();
        assertEquals(0, allocatedBytes(() -> car.encode(segment)), "bytes allocated encoding Car");
    }

    private static void carDecode(final MemorySegment segment)
    {
        final SableCar car = new SableCar();
        car.encode(segment);
        final long sum = car.decode(segment);
        assertEquals(0, allocatedBytes(() -> car.decode(segment)), "bytes allocated decoding Car");
        assertEquals(sum, car.decode(segment));
    }

    private static void marketDataEncode(final MemorySegment segment)
    {
        final SableMarketData marketData = new SableMarketData();
        assertEquals(0, allocatedBytes(() -> marketData.encode(segment)), "bytes allocated encoding MarketData");
    }

    private static void marketDataDecode(final MemorySegment segment)
    {
        final SableMarketData marketData = new SableMarketData();
        marketData.encode(segment);
        final long sum = marketData.decode(segment);
        assertEquals(0, allocatedBytes(() -> marketData.decode(segment)), "bytes allocated decoding MarketData");
        assertEquals(sum, marketData.decode(segment));
    }
}
