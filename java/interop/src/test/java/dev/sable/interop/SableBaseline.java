package dev.sable.interop;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static java.nio.charset.StandardCharsets.UTF_8;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import sable.baseline.BooleanType;
import sable.baseline.BoostType;
import sable.baseline.CarDecoder;
import sable.baseline.CarEncoder;
import sable.baseline.EngineDecoder;
import sable.baseline.EngineEncoder;
import sable.baseline.MessageHeaderDecoder;
import sable.baseline.MessageHeaderEncoder;
import sable.baseline.Model;
import sable.baseline.OptionalExtrasEncoder;

/** Sable's codec (MemorySegment flavour, over heap or off-heap memory) of example-schema.xml's Car (package baseline). */
final class SableBaseline implements MessageCodec<ExampleCar>
{
    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    private final CarEncoder encoder = new CarEncoder();
    private final CarDecoder decoder = new CarDecoder();

    private final boolean offHeap;

    SableBaseline(final boolean offHeap)
    {
        this.offHeap = offHeap;
    }

    @Override
    public String name()
    {
        return "sable baseline" + (offHeap ? " off-heap" : " heap");
    }

    @Override
    public byte[] encode(final ExampleCar value)
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment segment = offHeap ? arena.allocate(4096) : MemorySegment.ofArray(new byte[4096]);
            final int length = encode(value, segment);
            return segment.asSlice(0, length).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
        }
    }

    private int encode(final ExampleCar value, final MemorySegment buffer)
    {
        final CarEncoder car = encoder.wrapAndApplyHeader(buffer, 0, headerEncoder);
        car.serialNumber(value.serialNumber())
            .modelYear(value.modelYear())
            .available(BooleanType.get(value.available()))
            .code(Model.get(value.code()));
        for (int i = 0; i < value.someNumbers().size(); i++)
        {
            car.someNumbers(i, value.someNumbers().get(i));
        }
        car.vehicleCode(value.vehicleCode());
        final OptionalExtrasEncoder extras = car.extras().clear();
        extras.sunRoof((value.extras() & 1) != 0)
            .sportsPack((value.extras() & 2) != 0)
            .cruiseControl((value.extras() & 4) != 0);
        final ExampleCar.Engine e = value.engine();
        final EngineEncoder engine = car.engine()
            .capacity(e.capacity())
            .numCylinders(e.numCylinders())
            .manufacturerCode(e.manufacturerCode())
            .efficiency(e.efficiency())
            .boosterEnabled(BooleanType.get(e.boosterEnabled()));
        engine.booster().boostType(BoostType.get(e.boostType())).horsePower(e.horsePower());

        final CarEncoder.FuelFiguresEncoder fuelFigures = car.fuelFiguresCount(value.fuelFigures().size());
        for (final ExampleCar.FuelFigure f : value.fuelFigures())
        {
            final byte[] usage = f.usageDescription().getBytes(UTF_8);
            fuelFigures.next().speed(f.speed()).mpg(f.mpg()).putUsageDescription(usage, 0, usage.length);
        }
        final CarEncoder.PerformanceFiguresEncoder performanceFigures =
            car.performanceFiguresCount(value.performanceFigures().size());
        for (final ExampleCar.PerformanceFigure p : value.performanceFigures())
        {
            performanceFigures.next().octaneRating(p.octaneRating());
            final CarEncoder.PerformanceFiguresEncoder.AccelerationEncoder acceleration =
                performanceFigures.accelerationCount(p.acceleration().size());
            for (final ExampleCar.Acceleration a : p.acceleration())
            {
                acceleration.next().mph(a.mph()).seconds(a.seconds());
            }
        }
        putVarData(car, value.manufacturer(), 0);
        putVarData(car, value.model(), 1);
        putVarData(car, value.activationCode(), 2);
        return (int)(MessageHeaderEncoder.ENCODED_LENGTH + car.encodedLength());
    }

    private static void putVarData(final CarEncoder car, final String text, final int which)
    {
        final byte[] bytes = text.getBytes(UTF_8);
        switch (which)
        {
            case 0 -> car.putManufacturer(bytes, 0, bytes.length);
            case 1 -> car.putModel(bytes, 0, bytes.length);
            default -> car.putActivationCode(bytes, 0, bytes.length);
        }
    }

    @Override
    public ExampleCar decode(final byte[] bytes)
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment segment = offHeap ?
                arena.allocate(bytes.length + 1L).copyFrom(MemorySegment.ofArray(bytes)) : MemorySegment.ofArray(bytes);
            return decode(segment);
        }
    }

    private ExampleCar decode(final MemorySegment buffer)
    {
        headerDecoder.wrap(buffer, 0);
        final CarDecoder car = decoder.wrap(
            buffer, MessageHeaderDecoder.ENCODED_LENGTH, headerDecoder.blockLength(), headerDecoder.version());
        final byte[] scratch = new byte[64];

        final long serialNumber = car.serialNumber();
        final int modelYear = car.modelYear();
        final short available = car.availableRaw();
        final byte code = car.codeRaw();
        final List<Long> someNumbers = new ArrayList<>();
        for (int i = 0; i < CarDecoder.someNumbersLength(); i++)
        {
            someNumbers.add(car.someNumbers(i));
        }
        final String vehicleCode = Text.charArray(scratch, car.getVehicleCode(scratch, 0), US_ASCII);
        final short extras = car.extras().rawValue();
        final byte discountedModel = car.discountedModel().value();
        final EngineDecoder e = car.engine();
        final String manufacturerCode = Text.charArray(scratch, e.getManufacturerCode(scratch, 0), US_ASCII);
        final String fuel = EngineDecoder.fuel();
        final ExampleCar.Engine engine = new ExampleCar.Engine(
            e.capacity(), e.numCylinders(), e.maxRpm(), manufacturerCode, fuel, e.efficiency(),
            e.boosterEnabledRaw(), e.booster().boostTypeRaw(), e.booster().horsePower());

        final List<ExampleCar.FuelFigure> fuelFigures = new ArrayList<>();
        for (final CarDecoder.FuelFiguresDecoder f : car.fuelFigures())
        {
            final int speed = f.speed();
            final float mpg = f.mpg();
            final byte[] usage = new byte[f.usageDescriptionLength()];
            f.getUsageDescription(usage, 0, usage.length);
            fuelFigures.add(new ExampleCar.FuelFigure(speed, mpg, new String(usage, UTF_8)));
        }
        final List<ExampleCar.PerformanceFigure> performanceFigures = new ArrayList<>();
        for (final CarDecoder.PerformanceFiguresDecoder p : car.performanceFigures())
        {
            final short octaneRating = p.octaneRating();
            final List<ExampleCar.Acceleration> acceleration = new ArrayList<>();
            for (final CarDecoder.PerformanceFiguresDecoder.AccelerationDecoder a : p.acceleration())
            {
                acceleration.add(new ExampleCar.Acceleration(a.mph(), a.seconds()));
            }
            performanceFigures.add(new ExampleCar.PerformanceFigure(octaneRating, acceleration));
        }
        final byte[] manufacturer = new byte[car.manufacturerLength()];
        car.getManufacturer(manufacturer, 0, manufacturer.length);
        final byte[] model = new byte[car.modelLength()];
        car.getModel(model, 0, model.length);
        final byte[] activationCode = new byte[car.activationCodeLength()];
        car.getActivationCode(activationCode, 0, activationCode.length);

        return new ExampleCar(serialNumber, modelYear, available, code, someNumbers, vehicleCode, extras,
            discountedModel, engine, null, null, fuelFigures, performanceFigures,
            new String(manufacturer, UTF_8), new String(model, UTF_8), new String(activationCode, UTF_8));
    }
}
