package dev.sable.bench;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/** Encoding and decoding the reference benchmarks' MarketDataIncrementalRefreshTrades message. */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {Bench.NO_BOUNDS_CHECKS, Bench.UNSAFE_ALLOWED})
public class MarketDataBench
{
    /** Sable over heap memory: segments of byte arrays. */
    @State(Scope.Thread)
    public static class SableHeap
    {
        final SableMarketData codec = new SableMarketData();
        final MemorySegment encodeSegment = MemorySegment.ofArray(new byte[1024]);
        final MemorySegment decodeSegment = MemorySegment.ofArray(new byte[1024]);

        @Setup
        public void setup()
        {
            Checks.sableMarketData(codec, encodeSegment, decodeSegment);
        }
    }

    /** Sable over off-heap memory: segments of a shared Arena, 8-byte aligned. */
    @State(Scope.Thread)
    public static class SableOffHeap
    {
        final SableMarketData codec = new SableMarketData();
        Arena arena;
        MemorySegment encodeSegment;
        MemorySegment decodeSegment;

        @Setup
        public void setup()
        {
            arena = Arena.ofShared();
            encodeSegment = arena.allocate(1024, 8);
            decodeSegment = arena.allocate(1024, 8);
            Checks.sableMarketData(codec, encodeSegment, decodeSegment);
        }

        @TearDown
        public void tearDown()
        {
            arena.close();
        }
    }

    /**
     * Sable's Agrona flavour typed on UnsafeBuffer (--java-buffer agrona-unsafe), over UnsafeBuffers
     * of direct ByteBuffers, as the reference's; Agrona's bounds checks as the fork sets them (off,
     * unless the benchmark's own @Fork leaves them on).
     */
    @State(Scope.Thread)
    public static class SableAgrona
    {
        final SableAgronaMarketData codec = new SableAgronaMarketData();
        final UnsafeBuffer encodeBuffer = new UnsafeBuffer(ByteBuffer.allocateDirect(1024));
        final UnsafeBuffer decodeBuffer = new UnsafeBuffer(ByteBuffer.allocateDirect(1024));

        @Setup
        public void setup()
        {
            Checks.sableAgronaMarketData(codec, encodeBuffer, decodeBuffer);
        }
    }

    @State(Scope.Thread)
    public static class Reference
    {
        final ReferenceMarketData codec = new ReferenceMarketData();
        final UnsafeBuffer encodeBuffer = new UnsafeBuffer(ByteBuffer.allocateDirect(1024));
        final UnsafeBuffer decodeBuffer = new UnsafeBuffer(ByteBuffer.allocateDirect(1024));

        @Setup
        public void setup()
        {
            Checks.referenceMarketData(codec, decodeBuffer);
        }
    }

    @State(Scope.Thread)
    public static class Protobuf
    {
        final ProtobufMarketData codec = new ProtobufMarketData();
        final byte[] encodeBuffer = new byte[1024];
        final byte[] decodeBuffer = new byte[1024];
        int decodeLength;

        @Setup
        public void setup()
        {
            decodeLength = codec.encode(decodeBuffer);
            Checks.expect("protobuf MarketData decode", Checks.MARKET_DATA_PROTOBUF_SUM,
                ProtobufMarketData.decode(decodeBuffer, decodeLength));
        }
    }

    @Benchmark
    public int sableHeapEncode(final SableHeap state)
    {
        return state.codec.encode(state.encodeSegment);
    }

    @Benchmark
    public long sableHeapDecode(final SableHeap state)
    {
        return state.codec.decode(state.decodeSegment);
    }

    @Benchmark
    public int sableOffHeapEncode(final SableOffHeap state)
    {
        return state.codec.encode(state.encodeSegment);
    }

    @Benchmark
    public long sableOffHeapDecode(final SableOffHeap state)
    {
        return state.codec.decode(state.decodeSegment);
    }

    @Benchmark
    public int sableAgronaEncode(final SableAgrona state)
    {
        return state.codec.encode(state.encodeBuffer);
    }

    @Benchmark
    public long sableAgronaDecode(final SableAgrona state)
    {
        return state.codec.decode(state.decodeBuffer);
    }

    /** As sableAgronaEncode, with Agrona's bounds checks on (its default). */
    @Benchmark
    @Fork(value = 2, jvmArgsAppend = Bench.UNSAFE_ALLOWED)
    public int sableAgronaCheckedEncode(final SableAgrona state)
    {
        return state.codec.encode(state.encodeBuffer);
    }

    @Benchmark
    @Fork(value = 2, jvmArgsAppend = Bench.UNSAFE_ALLOWED)
    public long sableAgronaCheckedDecode(final SableAgrona state)
    {
        return state.codec.decode(state.decodeBuffer);
    }

    @Benchmark
    public int referenceEncode(final Reference state)
    {
        return state.codec.encode(state.encodeBuffer);
    }

    @Benchmark
    public long referenceDecode(final Reference state)
    {
        return state.codec.decode(state.decodeBuffer);
    }

    @Benchmark
    public int protobufEncode(final Protobuf state)
    {
        return state.codec.encode(state.encodeBuffer);
    }

    @Benchmark
    public long protobufDecode(final Protobuf state)
    {
        return ProtobufMarketData.decode(state.decodeBuffer, state.decodeLength);
    }
}
