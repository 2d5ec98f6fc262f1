package sable.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.Test;
import sable.conformance.example_schema.BooleanType;
import sable.conformance.example_schema.BoostType;
import sable.conformance.example_schema.CarDecoder;
import sable.conformance.example_schema.CarEncoder;
import sable.conformance.example_schema.MessageHeaderDecoder;
import sable.conformance.example_schema.MessageHeaderEncoder;
import sable.conformance.example_schema.Model;
import sable.conformance.example_schema.SbeDecodeException;
import sable.conformance.example_schema.SbeEncodeException;

/** The generated Java API beyond the vectors: memory kinds, iteration, text, errors, options. */
class ApiTest
{
    private static final String CAR_JSON = "{\"message\":\"Car\",\"header\":{\"blockLength\":49,\"templateId\":1,"
        + "\"schemaId\":1,\"version\":0},\"fields\":{\"serialNumber\":1234,\"modelYear\":2013,\"available\":\"T\","
        + "\"code\":\"A\",\"someNumbers\":[0,1,2,3,4],\"vehicleCode\":\"abcdef\",\"extras\":[\"sportsPack\","
        + "\"cruiseControl\"],\"discountedModel\":\"C\",\"engine\":{\"capacity\":2000,\"numCylinders\":4,"
        + "\"maxRpm\":9000,\"manufacturerCode\":\"123\",\"fuel\":\"Petrol\",\"efficiency\":35,"
        + "\"boosterEnabled\":\"T\",\"booster\":{\"BoostType\":\"NITROUS\",\"horsePower\":200}},"
        + "\"fuelFigures\":[{\"speed\":30,\"mpg\":35.9,\"usageDescription\":\"Urban Cycle\"},"
        + "{\"speed\":55,\"mpg\":49.0,\"usageDescription\":\"Combined Cycle\"}],"
        + "\"performanceFigures\":[{\"octaneRating\":95,\"acceleration\":[{\"mph\":30,\"seconds\":4.0}]}],"
        + "\"manufacturer\":\"Honda\",\"model\":\"Civic VTi\",\"activationCode\":\"abcdef\"}}";

    static int encodeCar(final MemorySegment segment, final long offset)
    {
        final CarEncoder car = new CarEncoder().wrapAndApplyHeader(segment, offset, new MessageHeaderEncoder())
            .serialNumber(1234)
            .modelYear(2013)
            .available(BooleanType.T)
            .code(Model.A)
            .putSomeNumbers(0, 1, 2, 3, 4)
            .vehicleCode("abcdef");
        car.extras().clear().sportsPack(true).cruiseControl(true);
        car.engine().capacity(2000).numCylinders((short) 4).manufacturerCode("123").efficiency((byte) 35)
            .boosterEnabled(BooleanType.T)
            .booster().boostType(BoostType.NITROUS).horsePower((short) 200);
        final CarEncoder.FuelFiguresEncoder fuel = car.fuelFiguresCount(2);
        fuel.next().speed(30).mpg(35.9f).usageDescription("Urban Cycle");
        fuel.next().speed(55).mpg(49.0f).usageDescription(new StringBuilder("Combined Cycle"));
        final CarEncoder.PerformanceFiguresEncoder performance = car.performanceFiguresCount(1);
        performance.next().octaneRating((short) 95).accelerationCount(1).next().mph(30).seconds(4.0f);
        car.manufacturer("Honda").model("Civic VTi").activationCode("abcdef");
        return MessageHeaderEncoder.ENCODED_LENGTH + car.encodedLength();
    }

    @Test
    void heapOffHeapAndByteBufferMemoryHoldTheSameMessage()
    {
        final byte[] heap = new byte[512];
        final int length = encodeCar(MemorySegment.ofArray(heap), 0);
        final CarDecoder decoder = new CarDecoder();
        assertEquals(CAR_JSON, decoder.wrapAndApplyHeader(MemorySegment.ofArray(heap), 0, new MessageHeaderDecoder()).toString());
        assertEquals(length, MessageHeaderDecoder.ENCODED_LENGTH + decoder.sbeDecodedLength());

        try (Arena arena = Arena.ofConfined())
        {
            // An odd offset beyond what an int holds in a large segment would need a mapped file;
            // here an unaligned offset in native memory.
            final MemorySegment offHeap = arena.allocate(1 << 20);
            final long offset = 100_003;
            assertEquals(length, encodeCar(offHeap, offset));
            assertEquals(CAR_JSON, decoder.wrapAndApplyHeader(offHeap, offset, new MessageHeaderDecoder()).toString());
            assertEquals(
                Hex.of(heap).substring(0, 2 * length),
                Hex.of(offHeap.asSlice(offset, length).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE)));
        }

        final ByteBuffer direct = ByteBuffer.allocateDirect(512);
        encodeCar(MemorySegment.ofBuffer(direct), 0);
        assertEquals(CAR_JSON, decoder.wrapAndApplyHeader(MemorySegment.ofBuffer(direct), 0, new MessageHeaderDecoder()).toString());
    }

    @Test
    void heapSegmentsThatAreNotAWholeWritableArrayKeepTheirOwnBoundsAndAccess()
    {
        // Codecs read and write a whole, writable byte[] segment through the array; any other
        // heap segment must still be bounded, and protected, as the segment is.
        final byte[] whole = new byte[512];
        final int length = encodeCar(MemorySegment.ofArray(whole), 0);

        final byte[] backing = new byte[1024];
        final MemorySegment slice = MemorySegment.ofArray(backing).asSlice(100, 512);
        assertEquals(length, encodeCar(slice, 0));
        assertEquals(Hex.of(whole), Hex.of(java.util.Arrays.copyOfRange(backing, 100, 612)));
        final CarDecoder decoder = new CarDecoder();
        assertEquals(CAR_JSON, decoder.wrapAndApplyHeader(slice, 0, new MessageHeaderDecoder()).toString());

        // The last byte of the message is outside the slice, though inside its array.
        final MemorySegment shortSlice = MemorySegment.ofArray(backing).asSlice(100, length - 1);
        final CarDecoder cut = new CarDecoder().wrapAndApplyHeader(shortSlice, 0, new MessageHeaderDecoder());
        cut.fuelFigures().forEach(CarDecoder.FuelFiguresDecoder::sbeSkip);
        cut.performanceFigures().forEach(CarDecoder.PerformanceFiguresDecoder::sbeSkip);
        cut.skipManufacturer();
        cut.skipModel();
        final SbeDecodeException truncated = assertThrows(SbeDecodeException.class, cut::activationCode);
        assertEquals("fields.activationCode", truncated.field());
        assertEquals(SbeDecodeException.Kind.TRUNCATED, truncated.kind());
        assertEquals(length - 10, truncated.offset());

        final byte[] untouched = new byte[512];
        final MemorySegment readOnly = MemorySegment.ofArray(untouched).asReadOnly();
        assertThrows(IllegalArgumentException.class, () -> encodeCar(readOnly, 0));
        assertEquals(Hex.of(new byte[512]), Hex.of(untouched));
        assertEquals(CAR_JSON, decoder.wrapAndApplyHeader(MemorySegment.ofArray(whole).asReadOnly(), 0,
            new MessageHeaderDecoder()).toString());
    }

    @Test
    void groupsIterateAndTextGoesToAnAppendable()
    {
        final MemorySegment segment = MemorySegment.ofArray(new byte[512]);
        encodeCar(segment, 0);
        final CarDecoder car = new CarDecoder().wrapAndApplyHeader(segment, 0, new MessageHeaderDecoder());
        assertEquals("abcdef", car.vehicleCode());
        final StringBuilder text = new StringBuilder();
        assertEquals(6, car.getVehicleCode(text));
        assertEquals("abcdef", text.toString());
        assertEquals(Model.C, CarDecoder.discountedModel());
        assertTrue(car.extras().cruiseControl());

        final StringBuilder usage = new StringBuilder();
        int speeds = 0;
        final CarDecoder.FuelFiguresDecoder fuel = car.fuelFigures();
        assertEquals(2, fuel.count());
        for (final CarDecoder.FuelFiguresDecoder f : fuel)
        {
            speeds += f.speed();
            f.getUsageDescription(usage);
            usage.append('|');
        }
        assertEquals(85, speeds);
        assertEquals("Urban Cycle|Combined Cycle|", usage.toString());
        assertThrows(NoSuchElementException.class, fuel::next);

        for (final CarDecoder.PerformanceFiguresDecoder p : car.performanceFigures())
        {
            assertEquals(95, p.octaneRating());
            final CarDecoder.PerformanceFiguresDecoder.AccelerationDecoder acceleration = p.acceleration();
            assertEquals(1, acceleration.count());
            assertEquals(4.0f, acceleration.next().seconds());
        }
        final byte[] bytes = new byte[16];
        assertEquals(5, car.manufacturerLength());
        assertEquals(5, car.getManufacturer(bytes, 0, bytes.length));
        assertEquals("Honda", new String(bytes, 0, 5, java.nio.charset.StandardCharsets.US_ASCII));
        assertEquals(9, car.skipModel());
        assertEquals("abcdef", car.activationCode());
    }

    @Test
    void compositesAndSetsBeyondAShorterBlockReadAsNull()
    {
        final MemorySegment segment = MemorySegment.ofArray(new byte[512]);
        encodeCar(segment, 0);
        // An older writer's block of 39 bytes: extras (at 38) on the wire, engine (39 to 49) not.
        final CarDecoder car = new CarDecoder().wrap(segment, MessageHeaderDecoder.ENCODED_LENGTH, 39, 0);
        assertEquals(1234, car.serialNumber());
        assertTrue(car.extras().sportsPack());
        assertEquals(65535, car.engine().capacity());
        assertEquals((short) 255, car.engine().numCylinders());
        assertEquals("", car.engine().manufacturerCode());
        assertEquals((byte) -128, car.engine().efficiency());
        assertEquals(BooleanType.NULL_VAL, car.engine().boosterEnabled());
        assertEquals(BoostType.NULL_VAL, car.engine().booster().boostType());
        assertEquals((short) 255, car.engine().booster().horsePower());
        // 38 bytes: extras is not on the wire either, so no choice is set.
        car.wrap(segment, MessageHeaderDecoder.ENCODED_LENGTH, 38, 0);
        assertTrue(car.extras().isEmpty());
        assertEquals(2013, car.modelYear());
        // The whole block again: everything as written.
        car.wrap(segment, MessageHeaderDecoder.ENCODED_LENGTH, CarDecoder.BLOCK_LENGTH, 0);
        assertEquals(2000, car.engine().capacity());
        assertEquals(BoostType.NITROUS, car.engine().booster().boostType());
        assertTrue(car.extras().cruiseControl());

        final org.agrona.concurrent.UnsafeBuffer buffer = new org.agrona.concurrent.UnsafeBuffer(new byte[512]);
        segment.asByteBuffer().get(0, buffer.byteArray(), 0, 512);
        final sable.conformance.agrona.example_schema.CarDecoder agrona = new sable.conformance.agrona.example_schema.CarDecoder()
            .wrap(buffer, MessageHeaderDecoder.ENCODED_LENGTH, 39, 0);
        assertTrue(agrona.extras().sportsPack());
        assertEquals(65535, agrona.engine().capacity());
        assertEquals(sable.conformance.agrona.example_schema.BoostType.NULL_VAL, agrona.engine().booster().boostType());
        agrona.wrap(buffer, MessageHeaderDecoder.ENCODED_LENGTH, CarDecoder.BLOCK_LENGTH, 0);
        assertEquals(2000, agrona.engine().capacity());
    }

    @Test
    void misuseIsReported()
    {
        final MemorySegment segment = MemorySegment.ofArray(new byte[512]);
        final CarEncoder car = new CarEncoder().wrap(segment, 0);
        assertThrows(SbeEncodeException.class, () -> car.vehicleCode("too long for six"));
        assertThrows(SbeEncodeException.class, () -> car.someNumbers(5, 1));
        assertThrows(SbeEncodeException.class, () -> car.fuelFiguresCount(65535));
        assertThrows(IllegalArgumentException.class, () -> Model.get((byte) 'Z'));
        assertEquals(Model.NULL_VAL, Model.get((byte) 0));

        encodeCar(segment, 0);
        final MessageHeaderEncoder header = new MessageHeaderEncoder().wrap(segment, 0).templateId(99);
        assertEquals(99, header.segment().get(java.lang.foreign.ValueLayout.JAVA_BYTE, 2));
        assertThrows(SbeDecodeException.class, () -> new CarDecoder().wrapAndApplyHeader(segment, 0, new MessageHeaderDecoder()));
    }

    @Test
    void unknownEnumValuesCanBeAValueInsteadOfAnError()
    {
        assertEquals(sable.conformance.unknown.enums_sets.Side.SBE_UNKNOWN, sable.conformance.unknown.enums_sets.Side.get((byte) 'Z'));
        assertEquals(sable.conformance.unknown.enums_sets.Side.Buy, sable.conformance.unknown.enums_sets.Side.get((byte) '1'));
        assertEquals(sable.conformance.unknown.enums_sets.Side.NULL_VAL, sable.conformance.unknown.enums_sets.Side.get((byte) 0));
        assertThrows(IllegalArgumentException.class, () -> sable.conformance.enums_sets.Side.get((byte) 'Z'));
    }

    @Test
    void agronaVarDataCanBeWrappedInPlace()
    {
        final org.agrona.concurrent.UnsafeBuffer buffer = new org.agrona.concurrent.UnsafeBuffer(new byte[256]);
        final sable.conformance.agrona.example_schema.CarEncoder car = new sable.conformance.agrona.example_schema.CarEncoder()
            .wrapAndApplyHeader(buffer, 0, new sable.conformance.agrona.example_schema.MessageHeaderEncoder());
        car.fuelFiguresCount(0);
        car.performanceFiguresCount(0);
        car.manufacturer("Honda").model("Civic").activationCode("x");

        final sable.conformance.agrona.example_schema.CarDecoder decoder = new sable.conformance.agrona.example_schema.CarDecoder()
            .wrapAndApplyHeader(buffer, 0, new sable.conformance.agrona.example_schema.MessageHeaderDecoder());
        decoder.fuelFigures();
        decoder.performanceFigures();
        final org.agrona.concurrent.UnsafeBuffer view = new org.agrona.concurrent.UnsafeBuffer(0, 0);
        decoder.wrapManufacturer(view);
        assertEquals("Honda", view.getStringWithoutLengthAscii(0, view.capacity()));
        assertEquals("Civic", decoder.model());
        assertEquals("x", decoder.activationCode());
    }

    @Test
    void metadataIsStatic()
    {
        assertEquals(49, CarEncoder.BLOCK_LENGTH);
        assertEquals(1, CarDecoder.TEMPLATE_ID);
        assertEquals(1, CarDecoder.serialNumberId());
        assertEquals(0, CarDecoder.serialNumberSinceVersion());
        assertEquals(5, CarDecoder.someNumbersLength());
        assertEquals(-1L, CarDecoder.serialNumberNullValue());
        assertEquals("ASCII", CarDecoder.vehicleCodeCharacterEncoding());
        assertEquals(4, CarDecoder.manufacturerHeaderLength());
        assertEquals(4, CarDecoder.FuelFiguresDecoder.HEADER_SIZE);
        assertEquals(java.nio.ByteOrder.LITTLE_ENDIAN, CarDecoder.BYTE_ORDER);
    }
}
