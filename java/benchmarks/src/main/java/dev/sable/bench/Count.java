package dev.sable.bench;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.function.LongSupplier;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Runs one benchmark operation a given number of times, untimed, for scripts/count-java.sh: run
 * under valgrind's callgrind twice with different counts, the difference of the two totals over
 * the difference of the counts is the operation's instructions, which (unlike timings) a busy
 * machine does not move. Each codec is checked as the JMH benchmarks check it first.
 */
public final class Count
{
    private static final int BUFFER_SIZE = 1024;

    private Count()
    {
    }

    /**
     * The operation named CODEC/MESSAGE/OP (heap, offheap, agrona, reference, protobuf; car,
     * marketdata; encode, decode), ready to run over its own buffer.
     */
    static LongSupplier operation(final String name)
    {
        final String[] parts = name.split("/");
        if (parts.length != 3 || !(parts[2].equals("encode") || parts[2].equals("decode")))
        {
            throw new IllegalArgumentException("not CODEC/MESSAGE/encode|decode: " + name);
        }
        final boolean encode = parts[2].equals("encode");
        final String codec = parts[0];
        final String message = parts[1];
        final UnsafeBuffer encodeBuffer = new UnsafeBuffer(ByteBuffer.allocateDirect(BUFFER_SIZE));
        final UnsafeBuffer decodeBuffer = new UnsafeBuffer(ByteBuffer.allocateDirect(BUFFER_SIZE));
        final MemorySegment encodeSegment;
        final MemorySegment decodeSegment;
        if (codec.equals("offheap"))
        {
            encodeSegment = Arena.global().allocate(BUFFER_SIZE, 8);
            decodeSegment = Arena.global().allocate(BUFFER_SIZE, 8);
        }
        else
        {
            encodeSegment = MemorySegment.ofArray(new byte[BUFFER_SIZE]);
            decodeSegment = MemorySegment.ofArray(new byte[BUFFER_SIZE]);
        }
        switch (codec + "/" + message)
        {
            case "heap/car", "offheap/car" ->
            {
                final SableCar c = new SableCar();
                Checks.sableCar(c, encodeSegment, decodeSegment);
                return encode ? () -> c.encode(encodeSegment) : () -> c.decode(decodeSegment);
            }
            case "heap/marketdata", "offheap/marketdata" ->
            {
                final SableMarketData c = new SableMarketData();
                Checks.sableMarketData(c, encodeSegment, decodeSegment);
                return encode ? () -> c.encode(encodeSegment) : () -> c.decode(decodeSegment);
            }
            case "agrona/car" ->
            {
                final SableAgronaCar c = new SableAgronaCar();
                Checks.sableAgronaCar(c, encodeBuffer, decodeBuffer);
                return encode ? () -> c.encode(encodeBuffer) : () -> c.decode(decodeBuffer);
            }
            case "agrona/marketdata" ->
            {
                final SableAgronaMarketData c = new SableAgronaMarketData();
                Checks.sableAgronaMarketData(c, encodeBuffer, decodeBuffer);
                return encode ? () -> c.encode(encodeBuffer) : () -> c.decode(decodeBuffer);
            }
            case "reference/car" ->
            {
                final ReferenceCar c = new ReferenceCar();
                Checks.referenceCar(c, decodeBuffer);
                return encode ? () -> c.encode(encodeBuffer) : () -> c.decode(decodeBuffer);
            }
            case "reference/marketdata" ->
            {
                final ReferenceMarketData c = new ReferenceMarketData();
                Checks.referenceMarketData(c, decodeBuffer);
                return encode ? () -> c.encode(encodeBuffer) : () -> c.decode(decodeBuffer);
            }
            case "protobuf/car" ->
            {
                final ProtobufCar c = new ProtobufCar();
                final byte[] out = new byte[BUFFER_SIZE];
                final byte[] in = new byte[BUFFER_SIZE];
                final int length = c.encode(in);
                return encode ? () -> c.encode(out) : () -> ProtobufCar.decode(in, length);
            }
            case "protobuf/marketdata" ->
            {
                final ProtobufMarketData c = new ProtobufMarketData();
                final byte[] out = new byte[BUFFER_SIZE];
                final byte[] in = new byte[BUFFER_SIZE];
                final int length = c.encode(in);
                return encode ? () -> c.encode(out) : () -> ProtobufMarketData.decode(in, length);
            }
            default -> throw new IllegalArgumentException("no such codec and message: " + name);
        }
    }

    /**
     * Runs operation args[0] args[1] times and prints the sum of its results (so that none of the
     * work can be left out).
     *
     * @param args the operation (CODEC/MESSAGE/OP) and the count.
     */
    public static void main(final String[] args)
    {
        if (args.length != 2)
        {
            System.err.println("usage: Count CODEC/MESSAGE/OP COUNT");
            System.exit(2);
        }
        final LongSupplier operation = operation(args[0]);
        final int count = Integer.parseInt(args[1]);
        long sum = 0;
        for (int i = 0; i < count; i++)
        {
            sum += operation.getAsLong();
        }
        System.out.println(args[0] + " x " + count + ": " + sum);
    }
}
