package dev.sable.bench;

import static dev.sable.bench.CarMessage.*;
import static dev.sable.bench.MarketDataMessage.*;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * What every benchmark's setup checks before it is measured: that its decoder reads back the
 * message's values (the decode benchmarks' sums, computed here from the message's constants
 * independently of any codec) and that Sable writes exactly the reference's bytes.
 */
final class Checks
{
    /** The SBE Car decoders' sum (Sable's and the reference's read the same fields alike). */
    static final long CAR_SBE_SUM;
    /** ProtobufCar.decode's sum: enums by protobuf number, text by length. */
    static final long CAR_PROTOBUF_SUM;
    /** The SBE MarketData decoders' sum. */
    static final long MARKET_DATA_SBE_SUM;
    /** ProtobufMarketData.decode's sum. */
    static final long MARKET_DATA_PROTOBUF_SUM;

    static
    {
        long groups = 0;
        for (int i = 0; i < FUEL_SPEED.length; i++)
        {
            groups += FUEL_SPEED[i] + Float.floatToRawIntBits(FUEL_MPG[i]);
        }
        for (int i = 0; i < OCTANE_RATING.length; i++)
        {
            groups += OCTANE_RATING[i];
            for (int j = 0; j < ACCELERATION_MPH.length; j++)
            {
                groups += ACCELERATION_MPH[j] + Float.floatToRawIntBits(ACCELERATION_SECONDS[i][j]);
            }
        }
        final long someNumbers = 0 + 1 + 2 + 3 + 4;
        final long common = SERIAL_NUMBER + MODEL_YEAR + someNumbers + VEHICLE_CODE.length +
            ENGINE_CAPACITY + ENGINE_CYLINDERS + ENGINE_MANUFACTURER_CODE.length + groups +
            MANUFACTURER.length + MODEL.length;
        // templateId 1, available T (1), code 'A', extras sunRoof (1) and sportsPack (2),
        // the constants maxRpm 9000 and fuel "Petrol" (6 bytes copied)
        CAR_SBE_SUM = common + 1 + 1 + 'A' + 3 + 9000 + 6;
        // available true (1), code A (1), extras SUN_ROOF (1) and SPORTS_PACK (2)
        CAR_PROTOBUF_SUM = common + 1 + 1 + 1 + 2;

        final long entry = TRADE_ID + SECURITY_ID + MD_ENTRY_PX_MANTISSA + MD_ENTRY_SIZE_MANTISSA +
            NUMBER_OF_ORDERS + RPT_SEQ;
        final long marketData = TRANSACT_TIME + EVENT_TIME_DELTA + 2 * entry;
        // templateId 2, END_EVENT '2', per entry: the constant exponent 7, NEW (0), the sides
        // '1' and '2', the constant MdEntryType TRADE '2'
        MARKET_DATA_SBE_SUM = marketData + 2 + '2' + 2 * (7 + 0 + '2') + '1' + '2';
        // END_EVENT 2, NEW 0, BUY 1 and SELL 2, TRADE 2 twice
        MARKET_DATA_PROTOBUF_SUM = marketData + 2 + 1 + 2 + 2 * 2;
    }

    private Checks()
    {
    }

    static void expect(final String what, final long expected, final long actual)
    {
        if (expected != actual)
        {
            throw new IllegalStateException(what + ": expected the sum " + expected + ", got " + actual);
        }
    }

    static void expectBytes(final String what, final byte[] expected, final byte[] actual)
    {
        if (!Arrays.equals(expected, actual))
        {
            throw new IllegalStateException(what + ": expected the bytes " + hex(expected) + ", got " + hex(actual));
        }
    }

    static String hex(final byte[] bytes)
    {
        final StringBuilder text = new StringBuilder();
        for (final byte b : bytes)
        {
            text.append(String.format("%02x", b & 0xff));
        }
        return text.toString();
    }

    /** The first length bytes of buffer. */
    static byte[] bytes(final UnsafeBuffer buffer, final int length)
    {
        final byte[] bytes = new byte[length];
        buffer.getBytes(0, bytes);
        return bytes;
    }

    /** The reference's encoding of Car, as bytes. */
    static byte[] referenceCarBytes()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(1024));
        return bytes(buffer, new ReferenceCar().encode(buffer));
    }

    /** The reference's encoding of MarketData, as bytes. */
    static byte[] referenceMarketDataBytes()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(1024));
        return bytes(buffer, new ReferenceMarketData().encode(buffer));
    }

    /** Encodes into buffer with the reference and checks that it decodes to the expected sum. */
    static void referenceCar(final ReferenceCar codec, final UnsafeBuffer buffer)
    {
        codec.encode(buffer);
        expect("reference Car decode", CAR_SBE_SUM, codec.decode(buffer));
    }

    static void referenceMarketData(final ReferenceMarketData codec, final UnsafeBuffer buffer)
    {
        codec.encode(buffer);
        expect("reference MarketData decode", MARKET_DATA_SBE_SUM, codec.decode(buffer));
    }

    /**
     * Encodes with Sable into encodeSegment, checks that the bytes are the reference's, then
     * encodes into decodeSegment and checks that Sable decodes it to the expected sum.
     */
    static void sableCar(final SableCar codec, final MemorySegment encodeSegment, final MemorySegment decodeSegment)
    {
        final int length = codec.encode(encodeSegment);
        expectBytes("Sable's Car encoding", referenceCarBytes(), encodeSegment.asSlice(0, length).toArray(ValueLayout.JAVA_BYTE));
        codec.encode(decodeSegment);
        expect("Sable Car decode", CAR_SBE_SUM, codec.decode(decodeSegment));
        final int splitLength = codec.encodeSplit(encodeSegment);
        expectBytes("Sable's Car encoding (split)", referenceCarBytes(),
            encodeSegment.asSlice(0, splitLength).toArray(ValueLayout.JAVA_BYTE));
        expect("Sable Car decode (split)", CAR_SBE_SUM, codec.decodeSplit(decodeSegment));
    }

    /** As sableCar, for the Agrona flavour over UnsafeBuffers. */
    static void sableAgronaCar(final SableAgronaCar codec, final UnsafeBuffer encodeBuffer, final UnsafeBuffer decodeBuffer)
    {
        final int length = codec.encode(encodeBuffer);
        expectBytes("Sable's Car encoding (Agrona)", referenceCarBytes(), bytes(encodeBuffer, length));
        codec.encode(decodeBuffer);
        expect("Sable Agrona Car decode", CAR_SBE_SUM, codec.decode(decodeBuffer));
    }

    static void sableAgronaMarketData(
        final SableAgronaMarketData codec, final UnsafeBuffer encodeBuffer, final UnsafeBuffer decodeBuffer)
    {
        final int length = codec.encode(encodeBuffer);
        expectBytes("Sable's MarketData encoding (Agrona)", referenceMarketDataBytes(), bytes(encodeBuffer, length));
        codec.encode(decodeBuffer);
        expect("Sable Agrona MarketData decode", MARKET_DATA_SBE_SUM, codec.decode(decodeBuffer));
    }

    static void sableMarketData(
        final SableMarketData codec, final MemorySegment encodeSegment, final MemorySegment decodeSegment)
    {
        final int length = codec.encode(encodeSegment);
        expectBytes("Sable's MarketData encoding", referenceMarketDataBytes(),
            encodeSegment.asSlice(0, length).toArray(ValueLayout.JAVA_BYTE));
        codec.encode(decodeSegment);
        expect("Sable MarketData decode", MARKET_DATA_SBE_SUM, codec.decode(decodeSegment));
    }
}
