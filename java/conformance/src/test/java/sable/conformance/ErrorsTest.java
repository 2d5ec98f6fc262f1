package sable.conformance;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import sable.conformance.example_schema.CarDecoder;
import sable.conformance.example_schema.CarEncoder;
import sable.conformance.example_schema.EngineDecoder;
import sable.conformance.example_schema.MessageHeaderDecoder;
import sable.conformance.example_schema.MessageHeaderEncoder;
import sable.conformance.example_schema.SbeDecodeException;
import sable.conformance.example_schema.SbeEncodeException;
import sable.conformance.example_schema.SbeSchemaDecoder;

/**
 * The codec contract's errors (docs/codecs.md): decoding reports the offset from the message's
 * first byte, the field path and the kind of the first item that cannot be read; encoders throw
 * rather than truncate, drop or wrap; text stops at the first NUL, the raw accessor has it all.
 */
class ErrorsTest
{
    /** One item of a message as the contract reads it: its first byte, its length, its path. */
    private record Item(int start, int length, String path)
    {
    }

    /** The items of ApiTest's Car, in reading order. */
    private static List<Item> carItems()
    {
        final List<Item> items = new ArrayList<>();
        final int[] at = {0};
        final java.util.function.BiConsumer<String, Integer> add = (path, length) ->
        {
            items.add(new Item(at[0], length, path));
            at[0] += length;
        };
        add.accept("header", 8);
        add.accept("fields", 49);
        add.accept("fields.fuelFigures", 4);
        add.accept("fields.fuelFigures[0]", 6);
        add.accept("fields.fuelFigures[0].usageDescription", 4 + "Urban Cycle".length());
        add.accept("fields.fuelFigures[1]", 6);
        add.accept("fields.fuelFigures[1].usageDescription", 4 + "Combined Cycle".length());
        add.accept("fields.performanceFigures", 4);
        add.accept("fields.performanceFigures[0]", 1);
        add.accept("fields.performanceFigures[0].acceleration", 4);
        add.accept("fields.performanceFigures[0].acceleration[0]", 6);
        add.accept("fields.manufacturer", 4 + "Honda".length());
        add.accept("fields.model", 4 + "Civic VTi".length());
        add.accept("fields.activationCode", 4 + "abcdef".length());
        return items;
    }

    private static byte[] car()
    {
        final byte[] buffer = new byte[512];
        final int length = ApiTest.encodeCar(MemorySegment.ofArray(buffer), 0);
        return Arrays.copyOf(buffer, length);
    }

    /** The item a message cut after `cut` bytes ends in. */
    private static Item itemAt(final List<Item> items, final int cut)
    {
        return items.stream().filter(i -> i.start() + i.length() > cut).findFirst().orElseThrow();
    }

    @Test
    void everyCutOfACarReportsTheItemItEndsIn()
    {
        final byte[] car = car();
        final List<Item> items = carItems();
        final Item last = items.get(items.size() - 1);
        assertEquals(car.length, last.start() + last.length());
        // At offset 100 of a larger buffer: offsets still count from the message's first byte.
        final byte[] placed = new byte[100 + car.length];
        System.arraycopy(car, 0, placed, 100, car.length);
        final SbeSchemaDecoder segmentDecoder = new SbeSchemaDecoder();
        final sable.conformance.agrona.example_schema.SbeSchemaDecoder agronaDecoder =
            new sable.conformance.agrona.example_schema.SbeSchemaDecoder();
        for (int cut = 0; cut < car.length; cut++)
        {
            final Item expected = itemAt(items, cut);
            final int length = cut;
            final SbeDecodeException bySegment = assertThrows(SbeDecodeException.class,
                () -> segmentDecoder.toJson(MemorySegment.ofArray(placed), 100, length));
            assertEquals(expected.start(), bySegment.offset(), "cut " + cut);
            assertEquals(expected.path(), bySegment.field(), "cut " + cut);
            assertEquals(SbeDecodeException.Kind.TRUNCATED, bySegment.kind());
            final SbeDecodeException bySlice = assertThrows(SbeDecodeException.class,
                () -> segmentDecoder.toJson(MemorySegment.ofArray(car).asSlice(0, length), 0, length));
            assertEquals(expected.start(), bySlice.offset(), "cut " + cut);
            final var byAgrona = assertThrows(sable.conformance.agrona.example_schema.SbeDecodeException.class,
                () -> agronaDecoder.toJson(new UnsafeBuffer(placed), 100, length));
            assertEquals(expected.start(), byAgrona.offset(), "cut " + cut);
            assertEquals(expected.path(), byAgrona.field(), "cut " + cut);
            assertEquals("truncated", byAgrona.kind().contractName());
        }
        final StringBuilder json = new StringBuilder("before:");
        segmentDecoder.appendJson(MemorySegment.ofArray(placed), 100, car.length, json);
        assertEquals("before:" + new CarDecoder().wrapAndApplyHeader(MemorySegment.ofArray(car), 0,
            new MessageHeaderDecoder()), json.toString());
        final StringBuilder untouched = new StringBuilder("before:");
        assertThrows(SbeDecodeException.class,
            () -> segmentDecoder.appendJson(MemorySegment.ofArray(car), 0, car.length - 1, untouched));
        assertEquals("before:", untouched.toString());
    }

    private static SbeDecodeException decodeError(final byte[] message)
    {
        return assertThrows(SbeDecodeException.class,
            () -> new SbeSchemaDecoder().toJson(MemorySegment.ofArray(message), 0, message.length));
    }

    private static void putShort(final byte[] message, final int at, final int value)
    {
        MemorySegment.ofArray(message).set(ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), at, (short) value);
    }

    private static void putInt(final byte[] message, final int at, final int value)
    {
        MemorySegment.ofArray(message).set(ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), at, value);
    }

    private static void assertError(final SbeDecodeException error, final long offset, final String field, final String kind)
    {
        assertEquals(offset, error.offset(), error.getMessage());
        assertEquals(field, error.field(), error.getMessage());
        assertEquals(kind, error.kind().contractName(), error.getMessage());
        final String json = error.appendJson(new StringBuilder()).toString();
        assertEquals("{\"offset\":" + offset + ",\"field\":\"" + field + "\",\"kind\":\"" + kind + "\",\"message\":",
            json.substring(0, json.indexOf(",\"message\":") + 11));
    }

    @Test
    void theHeaderIsCheckedInTheContractsOrder()
    {
        byte[] message = car();
        putShort(message, 4, 2);
        putShort(message, 2, 99);
        assertError(decodeError(message), 4, "header.schemaId", "schemaIdMismatch");

        message = car();
        putShort(message, 2, 99);
        putShort(message, 0, 1);
        assertError(decodeError(message), 2, "header.templateId", "unknownTemplate");
        final byte[] wrongTemplate = message;
        assertError(assertThrows(SbeDecodeException.class, () -> new CarDecoder().wrapAndApplyHeader(
            MemorySegment.ofArray(wrongTemplate), 0, new MessageHeaderDecoder())), 2, "header.templateId", "unknownTemplate");

        message = car();
        putShort(message, 0, 48);
        assertError(decodeError(message), 0, "header.blockLength", "blockLengthTooShort");
    }

    @Test
    void groupsAndVarDataThatLieAreTruncatedWhereTheyStopFitting()
    {
        final List<Item> items = carItems();
        final int fuel = items.get(2).start();
        byte[] message = car();
        putShort(message, fuel, 5);
        assertError(decodeError(message), fuel, "fields.fuelFigures", "blockLengthTooShort");

        message = car();
        putShort(message, fuel + 2, 1000);
        final SbeDecodeException lyingCount = decodeError(message);
        assertEquals("truncated", lyingCount.kind().contractName());
        assertEquals(true, lyingCount.field().startsWith("fields.fuelFigures["), lyingCount.field());

        message = car();
        final int manufacturer = items.get(11).start();
        putInt(message, manufacturer, 1000);
        assertError(decodeError(message), manufacturer, "fields.manufacturer", "truncated");

        message = car();
        putInt(message, manufacturer, -1);
        assertError(decodeError(message), manufacturer, "fields.manufacturer", "truncated");
    }

    /**
     * Offsets a user hands in are checked where they come in, so that no access can land at a
     * wrapped array index (heap segments are read through their arrays at int indices).
     */
    @Test
    void offsetsOutsideTheBufferAreRejectedWhereTheyComeIn()
    {
        final byte[] bytes = new byte[512];
        final MemorySegment segment = MemorySegment.ofArray(bytes);
        for (final long offset : new long[] {-1, 513, 1L << 32, Long.MIN_VALUE + 100})
        {
            assertThrows(IndexOutOfBoundsException.class, () -> new EngineDecoder().wrap(segment, offset));
            assertThrows(IndexOutOfBoundsException.class, () -> new CarEncoder().wrap(segment, offset));
            assertThrows(IndexOutOfBoundsException.class,
                () -> new CarEncoder().wrapAndApplyHeader(segment, offset, new MessageHeaderEncoder()));
            assertThrows(IndexOutOfBoundsException.class, () -> new CarDecoder().wrap(segment, offset, 49, 0));
            assertThrows(IndexOutOfBoundsException.class,
                () -> new CarDecoder().wrapAndApplyHeader(segment, offset, 100, new MessageHeaderDecoder()));
            assertThrows(IndexOutOfBoundsException.class, () -> new SbeSchemaDecoder().toJson(segment, offset, 100));
        }
        assertArrayEquals(new byte[512], bytes, "nothing was written");

        final CarEncoder car = new CarEncoder().wrapAndApplyHeader(segment, 0, new MessageHeaderEncoder());
        assertThrows(IndexOutOfBoundsException.class, () -> car.limit(513));
        assertThrows(IndexOutOfBoundsException.class, () -> car.limit(-1));
        car.limit(512);
    }

    /** A length beyond the buffer is cut at its end: a lying var data length is truncated, not read past it. */
    @Test
    void aLengthBeyondTheBufferIsCutAtItsEnd()
    {
        final byte[] message = car();
        final int manufacturer = carItems().get(11).start();
        putInt(message, manufacturer, 0x7FFF_FFF0);
        final SbeDecodeException error = assertThrows(SbeDecodeException.class,
            () -> new SbeSchemaDecoder().toJson(MemorySegment.ofArray(message), 0, Long.MAX_VALUE));
        assertError(error, manufacturer, "fields.manufacturer", "truncated");
        assertError(assertThrows(SbeDecodeException.class, () -> new CarDecoder().wrapAndApplyHeader(
            MemorySegment.ofArray(Arrays.copyOf(message, 5)), 0, 1000, new MessageHeaderDecoder())), 0, "header", "truncated");
    }

    private static void assertEncodeError(final String field, final SbeEncodeException.Kind kind, final Runnable encode)
    {
        final SbeEncodeException error = assertThrows(SbeEncodeException.class, encode::run);
        assertEquals(field, error.field(), error.getMessage());
        assertEquals(kind, error.kind(), error.getMessage());
    }

    @Test
    void encodersThrowRatherThanTruncateDropOrWrap()
    {
        final byte[] bytes = new byte[512];
        final MemorySegment segment = MemorySegment.ofArray(bytes);
        final CarEncoder car = new CarEncoder().wrapAndApplyHeader(segment, 0, new MessageHeaderEncoder());
        assertEncodeError("fields.vehicleCode", SbeEncodeException.Kind.TEXT_TOO_LONG, () -> car.vehicleCode("too long for six"));
        assertEquals(0, bytes[8 + CarEncoder.vehicleCodeEncodingOffset()], "nothing written");
        assertEncodeError("fields.someNumbers", SbeEncodeException.Kind.INDEX_OUT_OF_RANGE, () -> car.someNumbers(5, 1));
        assertEncodeError("fields.someNumbers", SbeEncodeException.Kind.INDEX_OUT_OF_RANGE, () -> car.someNumbers(-1, 1));
        // A composite member is named by its full path, as `sable encode` names it.
        assertEncodeError("fields.engine.efficiency", SbeEncodeException.Kind.VALUE_OUT_OF_RANGE, () -> car.engine().efficiency((byte) 101));
        assertEncodeError("fields.engine.efficiency", SbeEncodeException.Kind.VALUE_OUT_OF_RANGE, () -> car.engine().efficiency((byte) -1));
        assertEncodeError("fields.engine.manufacturerCode", SbeEncodeException.Kind.TEXT_TOO_LONG, () -> car.engine().manufacturerCode("1234"));
        assertEncodeError("fields.engine.manufacturerCode", SbeEncodeException.Kind.INDEX_OUT_OF_RANGE, () -> car.engine().manufacturerCode(3, (byte) '1'));
        car.engine().efficiency((byte) 100).efficiency((byte) 0);
        assertEncodeError("fields.fuelFigures", SbeEncodeException.Kind.COUNT_TOO_LARGE,
            () -> car.fuelFiguresCount(CarEncoder.FuelFiguresEncoder.countMaxValue() + 1));

        // A failed group or var data still counts as accessed for the access-order checks:
        // after an encoding error, a message is started again.
        final CarEncoder again = new CarEncoder().wrapAndApplyHeader(segment, 0, new MessageHeaderEncoder());
        again.fuelFiguresCount(0);
        final CarEncoder.PerformanceFiguresEncoder performance = again.performanceFiguresCount(1).next();
        assertEncodeError("fields.performanceFigures[0].octaneRating", SbeEncodeException.Kind.VALUE_OUT_OF_RANGE,
            () -> performance.octaneRating((short) 89));
        performance.octaneRating((short) 90).octaneRating((short) 110).octaneRating((short) 255);
        performance.accelerationCount(0);
        assertEncodeError("fields.manufacturer", SbeEncodeException.Kind.LENGTH_TOO_LARGE,
            () -> again.putManufacturer(new byte[1], 0, 1073741825));
    }

    @Test
    void encodersThrowWhenTheBufferIsTooShort()
    {
        assertEncodeError("header", SbeEncodeException.Kind.BUFFER_TOO_SHORT,
            () -> new CarEncoder().wrapAndApplyHeader(MemorySegment.ofArray(new byte[7]), 0, new MessageHeaderEncoder()));
        final byte[] tooShortForTheBlock = new byte[56];
        assertEncodeError("fields", SbeEncodeException.Kind.BUFFER_TOO_SHORT,
            () -> new CarEncoder().wrapAndApplyHeader(MemorySegment.ofArray(tooShortForTheBlock), 0, new MessageHeaderEncoder()));
        assertArrayEquals(new byte[56], tooShortForTheBlock, "no header written either");

        final CarEncoder car = new CarEncoder().wrapAndApplyHeader(MemorySegment.ofArray(new byte[100]), 0, new MessageHeaderEncoder());
        final CarEncoder.FuelFiguresEncoder fuel = car.fuelFiguresCount(3);
        fuel.next().usageDescription("Urban Cycle");
        fuel.next();
        assertEncodeError("fields.fuelFigures[1].usageDescription", SbeEncodeException.Kind.BUFFER_TOO_SHORT,
            () -> fuel.usageDescription("Combined Cycle"));

        final CarEncoder exact = new CarEncoder().wrapAndApplyHeader(MemorySegment.ofArray(new byte[100]), 0, new MessageHeaderEncoder());
        final CarEncoder.FuelFiguresEncoder exactFuel = exact.fuelFiguresCount(3);
        exactFuel.next().usageDescription("Urban Cycle");
        exactFuel.next().usageDescription("Combined");
        assertEquals(100 - 8, exact.encodedLength(), "the buffer is full");
        assertEncodeError("fields.fuelFigures[2]", SbeEncodeException.Kind.BUFFER_TOO_SHORT, exactFuel::next);

        final var agrona = new sable.conformance.agrona.example_schema.CarEncoder()
            .wrapAndApplyHeader(new UnsafeBuffer(new byte[60]), 0, new sable.conformance.agrona.example_schema.MessageHeaderEncoder());
        final var agronaError = assertThrows(sable.conformance.agrona.example_schema.SbeEncodeException.class,
            () -> agrona.fuelFiguresCount(1).next());
        assertEquals("fields.fuelFigures", agronaError.field());
        assertEquals("bufferTooShort", agronaError.kind().contractName());
    }

    @Test
    void fixedSizeEntriesFailAtTheFirstEntryThatDoesNotFitAndNoSooner()
    {
        // acceleration entries are fixed-size (no group or var data inside): their encoder counts
        // the entries that fit when the group starts; the errors must be those of a check per entry.
        final int entry = CarEncoder.PerformanceFiguresEncoder.AccelerationEncoder.BLOCK_LENGTH;
        final int twoEntries = MessageHeaderEncoder.ENCODED_LENGTH + CarEncoder.BLOCK_LENGTH
            + CarEncoder.FuelFiguresEncoder.HEADER_SIZE
            + CarEncoder.PerformanceFiguresEncoder.HEADER_SIZE + CarEncoder.PerformanceFiguresEncoder.BLOCK_LENGTH
            + CarEncoder.PerformanceFiguresEncoder.AccelerationEncoder.HEADER_SIZE + 2 * entry;
        final CarEncoder car = new CarEncoder()
            .wrapAndApplyHeader(MemorySegment.ofArray(new byte[twoEntries + entry - 1]), 0, new MessageHeaderEncoder());
        car.fuelFiguresCount(0);
        final CarEncoder.PerformanceFiguresEncoder.AccelerationEncoder acceleration =
            car.performanceFiguresCount(1).next().octaneRating((short) 95).accelerationCount(3);
        acceleration.next().mph(30).seconds(4.0f);
        acceleration.next().mph(60).seconds(7.5f);
        final SbeEncodeException error = assertThrows(SbeEncodeException.class, acceleration::next);
        assertEquals("fields.performanceFigures[0].acceleration[2]", error.field(), error.getMessage());
        assertEquals(SbeEncodeException.Kind.BUFFER_TOO_SHORT, error.kind());
        assertEquals(entry + " bytes at offset " + twoEntries + " do not fit in a buffer of "
            + (twoEntries + entry - 1) + " bytes", error.getMessage().substring(error.getMessage().indexOf(": ") + 2));
        assertEquals(twoEntries - MessageHeaderEncoder.ENCODED_LENGTH, car.encodedLength(), "nothing written past the fit");
        assertEquals(2, acceleration.resetCountToIndex());
        assertThrows(java.util.NoSuchElementException.class, acceleration::next);

        // Room to spare: past the count is NoSuchElementException, as for any group.
        final CarEncoder roomy = new CarEncoder().wrapAndApplyHeader(MemorySegment.ofArray(new byte[512]), 0, new MessageHeaderEncoder());
        roomy.fuelFiguresCount(0);
        final CarEncoder.PerformanceFiguresEncoder.AccelerationEncoder one =
            roomy.performanceFiguresCount(1).next().octaneRating((short) 95).accelerationCount(1);
        one.next().mph(30);
        assertThrows(java.util.NoSuchElementException.class, one::next);
    }

    @Test
    void textStopsAtTheFirstNulAndTheRawAccessorHasEveryByte()
    {
        final byte[] bytes = new byte[512];
        final MemorySegment segment = MemorySegment.ofArray(bytes);
        final CarEncoder car = new CarEncoder().wrapAndApplyHeader(segment, 0, new MessageHeaderEncoder());
        car.putVehicleCode("ab\0cde".getBytes(java.nio.charset.StandardCharsets.US_ASCII), 0);
        final CarDecoder decoder = new CarDecoder().wrapAndApplyHeader(segment, 0, new MessageHeaderDecoder());
        assertEquals("ab", decoder.vehicleCode());
        final StringBuilder text = new StringBuilder();
        decoder.getVehicleCode(text);
        assertEquals("ab", text.toString());
        final byte[] raw = new byte[6];
        assertEquals(6, decoder.getVehicleCode(raw, 0));
        assertArrayEquals("ab\0cde".getBytes(java.nio.charset.StandardCharsets.US_ASCII), raw);

        car.vehicleCode("xy");
        assertEquals("xy", decoder.vehicleCode());
        decoder.getVehicleCode(raw, 0);
        assertArrayEquals(new byte[] {'x', 'y', 0, 0, 0, 0}, raw, "shorter text is NUL-padded");
    }
}
