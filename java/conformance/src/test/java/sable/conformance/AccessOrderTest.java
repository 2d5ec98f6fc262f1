package sable.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;
import sable.conformance.example_schema.CarDecoder;
import sable.conformance.example_schema.CarEncoder;
import sable.conformance.example_schema.MessageHeaderDecoder;
import sable.conformance.example_schema.MessageHeaderEncoder;

/**
 * The codecs' access-order checks (run only with -Dsable.enable.access.order.checks=true: the
 * surefire execution "access-order-checks"): groups and var data are accessed in schema order,
 * every entry and its groups and var data before the next.
 */
class AccessOrderTest
{
    @Test
    void checksAreOn()
    {
        assertTrue(Boolean.getBoolean("sable.enable.access.order.checks"));
    }

    @Test
    void encodersRejectGroupsAndVarDataOutOfOrder()
    {
        final MemorySegment segment = MemorySegment.ofArray(new byte[512]);
        final CarEncoder car = new CarEncoder().wrapAndApplyHeader(segment, 0, new MessageHeaderEncoder());
        final IllegalStateException skipped = assertThrows(IllegalStateException.class, () -> car.manufacturer("Honda"));
        assertEquals(
            "access order: manufacturer accessed, but fuelFigures is next (groups and var data are accessed in schema order)",
            skipped.getMessage());

        final CarEncoder.FuelFiguresEncoder fuel = car.fuelFiguresCount(2);
        fuel.next().speed(30);
        // The entry's var data was not written before the next entry.
        assertThrows(IllegalStateException.class, fuel::next);

        car.wrapAndApplyHeader(segment, 0, new MessageHeaderEncoder());
        final CarEncoder.FuelFiguresEncoder two = car.fuelFiguresCount(2);
        two.next().speed(30).usageDescription("a");
        // One of two entries written, then the next group.
        assertThrows(IllegalStateException.class, () -> car.performanceFiguresCount(0));
    }

    @Test
    void decodersRejectGroupsAndVarDataOutOfOrderButPrintAnyTime()
    {
        final MemorySegment segment = MemorySegment.ofArray(new byte[512]);
        final CarEncoder car = new CarEncoder().wrapAndApplyHeader(segment, 0, new MessageHeaderEncoder());
        car.fuelFiguresCount(1).next().speed(30).usageDescription("Urban");
        car.performanceFiguresCount(0);
        car.manufacturer("Honda").model("Civic").activationCode("x");

        final CarDecoder decoder = new CarDecoder().wrapAndApplyHeader(segment, 0, new MessageHeaderDecoder());
        assertThrows(IllegalStateException.class, decoder::manufacturer);
        final CarDecoder.FuelFiguresDecoder fuel = decoder.fuelFigures();
        fuel.next();
        // Printing rewinds and restores the position.
        final String json = decoder.toString();
        assertTrue(json.contains("\"manufacturer\":\"Honda\""), json);
        assertEquals(49 + 4 + 6 + 4 + 5 + 4 + 4 + 5 + 4 + 5 + 4 + 1, decoder.sbeDecodedLength());

        decoder.sbeRewind();
        decoder.fuelFigures().next().getUsageDescription(new StringBuilder());
        decoder.performanceFigures();
        assertEquals("Honda", decoder.manufacturer());
        decoder.skipModel();
        assertEquals("x", decoder.activationCode());
    }
}
