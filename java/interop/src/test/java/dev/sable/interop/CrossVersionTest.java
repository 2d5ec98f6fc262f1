package dev.sable.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Messages written with one version of the example schema and read with the other, by both
 * libraries: example-extension-schema.xml (version 2: uuid and cupHolderCount since version 1,
 * fuelFigures.mpg since version 2, someNumbers one element shorter) against example-schema.xml
 * (version 0). Every reader of every writer's bytes must agree with every other, field by field,
 * and the fields both schemas place alike must read as written.
 */
class CrossVersionTest
{
    @Test
    void extensionWriterBaselineReaderTypical()
    {
        extensionWriterBaselineReader(Samples.extensionTypical());
    }

    @Test
    void extensionWriterBaselineReaderEmptyAndNull()
    {
        extensionWriterBaselineReader(Samples.extensionNulls());
    }

    @Test
    void extensionWriterBaselineReaderSpecialFloats()
    {
        extensionWriterBaselineReader(Samples.extensionExtremes());
    }

    @Test
    void baselineWriterExtensionReaderTypical()
    {
        baselineWriterExtensionReader(asciiOnly(Samples.baselineTypical()));
    }

    @Test
    void baselineWriterExtensionReaderEmpty()
    {
        baselineWriterExtensionReader(Samples.baselineMax());
    }

    static void extensionWriterBaselineReader(final ExampleCar written)
    {
        for (final MessageCodec<ExampleCar> writer : Codecs.extension())
        {
            final byte[] bytes = writer.encode(written);
            final ExampleCar read = everyReaderAgrees(writer, Codecs.baseline(), bytes);
            final String what = writer.name() + " -> baseline readers";
            sharedFieldsAsWritten(written, read, what);
            // the extension's fuelFigures.mpg (since version 2) is read as written: the writer's
            // version is 2
            assertEquals(written.fuelFigures(), read.fuelFigures(), what);
            assertEquals(null, read.uuid(), what);
            assertEquals(null, read.cupHolderCount(), what);
        }
    }

    static void baselineWriterExtensionReader(final ExampleCar written)
    {
        for (final MessageCodec<ExampleCar> writer : Codecs.baseline())
        {
            final byte[] bytes = writer.encode(written);
            final ExampleCar read = everyReaderAgrees(writer, Codecs.extension(), bytes);
            final String what = writer.name() + " -> extension readers";
            sharedFieldsAsWritten(written, read, what);
            // absent at the writer's version 0: the null values
            assertEquals(List.of(Long.MIN_VALUE, Long.MIN_VALUE), read.uuid(), what);
            assertEquals((short)255, read.cupHolderCount(), what);
            assertEquals(written.fuelFigures().size(), read.fuelFigures().size(), what);
            for (int i = 0; i < written.fuelFigures().size(); i++)
            {
                final ExampleCar.FuelFigure w = written.fuelFigures().get(i);
                final ExampleCar.FuelFigure r = read.fuelFigures().get(i);
                assertEquals(w.speed(), r.speed(), what);
                assertEquals(Float.NaN, r.mpg(), what + ": mpg is since version 2, so null (NaN) at version 0");
                assertEquals(w.usageDescription(), r.usageDescription(), what);
            }
        }
    }

    /** Decodes bytes with every reader, checks that they all read the same, returns that. */
    static ExampleCar everyReaderAgrees(
        final MessageCodec<ExampleCar> writer, final List<MessageCodec<ExampleCar>> readers, final byte[] bytes)
    {
        final ExampleCar first = readers.get(0).decode(bytes);
        for (final MessageCodec<ExampleCar> reader : readers)
        {
            assertEquals(first, reader.decode(bytes), writer.name() + " -> " + reader.name() + " vs " +
                readers.get(0).name());
        }
        return first;
    }

    /**
     * The fields both versions place at the same offsets and decode alike: the root block up to
     * someNumbers (four elements in both), the groups but fuelFigures.mpg, and the var data.
     */
    static void sharedFieldsAsWritten(final ExampleCar written, final ExampleCar read, final String what)
    {
        assertEquals(written.serialNumber(), read.serialNumber(), what);
        assertEquals(written.modelYear(), read.modelYear(), what);
        assertEquals(written.available(), read.available(), what);
        assertEquals(written.code(), read.code(), what);
        assertEquals(written.someNumbers().subList(0, 4), read.someNumbers().subList(0, 4), what);
        assertEquals(written.discountedModel(), read.discountedModel(), what);
        assertEquals(written.performanceFigures(), read.performanceFigures(), what);
        assertEquals(written.manufacturer(), read.manufacturer(), what);
        assertEquals(written.model(), read.model(), what);
        assertEquals(written.activationCode(), read.activationCode(), what);
    }

    /** The car with text every version of the schema can carry (the extension's ASCII fields). */
    static ExampleCar asciiOnly(final ExampleCar car)
    {
        final List<ExampleCar.FuelFigure> fuel = new ArrayList<>();
        for (final ExampleCar.FuelFigure f : car.fuelFigures())
        {
            fuel.add(new ExampleCar.FuelFigure(f.speed(), f.mpg(), f.usageDescription().replaceAll("[^ -~]", "?")));
        }
        return new ExampleCar(car.serialNumber(), car.modelYear(), car.available(), car.code(), car.someNumbers(),
            car.vehicleCode(), car.extras(), car.discountedModel(), car.engine(), car.uuid(), car.cupHolderCount(),
            fuel, car.performanceFigures(), car.manufacturer(), car.model(),
            car.activationCode().replaceAll("[^ -~]", "?"));
    }
}
