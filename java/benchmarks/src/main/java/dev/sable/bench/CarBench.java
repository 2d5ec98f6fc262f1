package dev.sable.bench;

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
import org.openjdk.jmh.annotations.Warmup;

/** Encoding and decoding the reference benchmarks' Car message with each library. */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {Bench.NO_BOUNDS_CHECKS, Bench.UNSAFE_ALLOWED})
public class CarBench
{
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
