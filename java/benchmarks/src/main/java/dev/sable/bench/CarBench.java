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

/** Encoding and decoding the reference benchmarks' Car message with each library. */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {Bench.NO_BOUNDS_CHECKS, Bench.UNSAFE_ALLOWED})
public class CarBench
{
    /** Sable over heap memory: segments of byte arrays. */
    @State(Scope.Thread)
    public static class SableHeap
    {
        final SableCar codec = new SableCar();
        final MemorySegment encodeSegment = MemorySegment.ofArray(new byte[1024]);
        final MemorySegment decodeSegment = MemorySegment.ofArray(new byte[1024]);

        @Setup
        public void setup()
        {
            Checks.sableCar(codec, encodeSegment, decodeSegment);
        }
    }

    /** Sable over off-heap memory: segments of a shared Arena, 8-byte aligned. */
    @State(Scope.Thread)
    public static class SableOffHeap
    {
        final SableCar codec = new SableCar();
        Arena arena;
        MemorySegment encodeSegment;
        MemorySegment decodeSegment;

        @Setup
        public void setup()
        {
            arena = Arena.ofShared();
            encodeSegment = arena.allocate(1024, 8);
            decodeSegment = arena.allocate(1024, 8);
            Checks.sableCar(codec, encodeSegment, decodeSegment);
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
        final SableAgronaCar codec = new SableAgronaCar();
        final UnsafeBuffer encodeBuffer = new UnsafeBuffer(ByteBuffer.allocateDirect(1024));
        final UnsafeBuffer decodeBuffer = new UnsafeBuffer(ByteBuffer.allocateDirect(1024));

        @Setup
        public void setup()
        {
            Checks.sableAgronaCar(codec, encodeBuffer, decodeBuffer);
        }
    }

    @State(Scope.Thread)
    public static class Reference
    {
        final ReferenceCar codec = new ReferenceCar();
        final UnsafeBuffer encodeBuffer = new UnsafeBuffer(ByteBuffer.allocateDirect(1024));
        final UnsafeBuffer decodeBuffer = new UnsafeBuffer(ByteBuffer.allocateDirect(1024));

        @Setup
        public void setup()
        {
            Checks.referenceCar(codec, decodeBuffer);
        }
    }

    @State(Scope.Thread)
    public static class Protobuf
    {
        final ProtobufCar codec = new ProtobufCar();
        final byte[] encodeBuffer = new byte[1024];
        final byte[] decodeBuffer = new byte[1024];
        int decodeLength;

        @Setup
        public void setup()
        {
            decodeLength = codec.encode(decodeBuffer);
            Checks.expect("protobuf Car decode", Checks.CAR_PROTOBUF_SUM, ProtobufCar.decode(decodeBuffer, decodeLength));
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

    /** Sable off-heap, the encoding split into three methods (SableCar.encodeSplit). */
    @Benchmark
    public int sableOffHeapSplitEncode(final SableOffHeap state)
    {
        return state.codec.encodeSplit(state.encodeSegment);
    }

    @Benchmark
    public long sableOffHeapSplitDecode(final SableOffHeap state)
    {
        return state.codec.decodeSplit(state.decodeSegment);
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
        return ProtobufCar.decode(state.decodeBuffer, state.decodeLength);
    }
}
