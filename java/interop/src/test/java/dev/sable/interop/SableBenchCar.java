package dev.sable.interop;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.US_ASCII;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import sable.benchcar.BooleanType;
import sable.benchcar.CarDecoder;
import sable.benchcar.CarEncoder;
import sable.benchcar.EngineDecoder;
import sable.benchcar.MessageHeaderDecoder;
import sable.benchcar.MessageHeaderEncoder;
import sable.benchcar.Model;

/** Sable's codec (MemorySegment flavour, over heap or off-heap memory) of bench-car.xml's Car. */
final class SableBenchCar implements MessageCodec<BenchCar>
{
    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    private final CarEncoder encoder = new CarEncoder();
    private final CarDecoder decoder = new CarDecoder();

    private final boolean offHeap;

    SableBenchCar(final boolean offHeap)
    {
        this.offHeap = offHeap;
    }

    @Override
    public String name()
    {
        return "sable" + (offHeap ? " off-heap" : " heap");
    }

    @Override
    public byte[] encode(final BenchCar value)
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment segment = offHeap ? arena.allocate(4096) : MemorySegment.ofArray(new byte[4096]);
            final int length = encode(value, segment);
            return segment.asSlice(0, length).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
        }
    }

    private int encode(final BenchCar value, final MemorySegment buffer)
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
        car.extras().clear()
            .sunRoof((value.extras() & 1) != 0)
            .sportsPack((value.extras() & 2) != 0)
            .cruiseControl((value.extras() & 4) != 0);
        car.engine()
            .capacity(value.engineCapacity())
            .numCylinders(value.engineNumCylinders())
            .manufacturerCode(value.engineManufacturerCode());

        final CarEncoder.FuelFiguresEncoder fuelFigures = car.fuelFiguresCount(value.fuelFigures().size());
        for (final BenchCar.FuelFigure f : value.fuelFigures())
        {
            fuelFigures.next().speed(f.speed()).mpg(f.mpg());
        }
        final CarEncoder.PerformanceFiguresEncoder performanceFigures =
            car.performanceFiguresCount(value.performanceFigures().size());
        for (final BenchCar.PerformanceFigure p : value.performanceFigures())
        {
            performanceFigures.next().octaneRating(p.octaneRating());
            final CarEncoder.PerformanceFiguresEncoder.AccelerationEncoder acceleration =
                performanceFigures.accelerationCount(p.acceleration().size());
            for (final BenchCar.Acceleration a : p.acceleration())
            {
                acceleration.next().mph(a.mph()).seconds(a.seconds());
            }
        }
        final byte[] manufacturer = value.manufacturer().getBytes(ISO_8859_1);
        car.putManufacturer(manufacturer, 0, manufacturer.length);
        final byte[] model = value.model().getBytes(ISO_8859_1);
        car.putModel(model, 0, model.length);
        return (int)(MessageHeaderEncoder.ENCODED_LENGTH + car.encodedLength());
    }

    @Override
    public BenchCar decode(final byte[] bytes)
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment segment = offHeap ?
                arena.allocate(bytes.length + 1L).copyFrom(MemorySegment.ofArray(bytes)) : MemorySegment.ofArray(bytes);
            return decode(segment);
        }
    }

    private BenchCar decode(final MemorySegment buffer)
    {
        headerDecoder.wrap(buffer, 0);
        final CarDecoder car = decoder.wrap(
            buffer, MessageHeaderDecoder.ENCODED_LENGTH, headerDecoder.blockLength(), headerDecoder.version());
        final byte[] scratch = new byte[64];

        final long serialNumber = car.serialNumber();
        final int modelYear = car.modelYear();
        final short available = car.availableRaw();
        final byte code = car.codeRaw();
        final List<Integer> someNumbers = new ArrayList<>();
        for (int i = 0; i < CarDecoder.someNumbersLength(); i++)
        {
            someNumbers.add(car.someNumbers(i));
        }
        final String vehicleCode = Text.charArray(scratch, car.getVehicleCode(scratch, 0), US_ASCII);
        final short extras = car.extras().rawValue();
        final EngineDecoder e = car.engine();
        final int capacity = e.capacity();
        final short numCylinders = e.numCylinders();
        final int maxRpm = e.maxRpm();
        final String manufacturerCode = Text.charArray(scratch, e.getManufacturerCode(scratch, 0), US_ASCII);
        final String fuel = EngineDecoder.fuel();

        final List<BenchCar.FuelFigure> fuelFigures = new ArrayList<>();
        for (final CarDecoder.FuelFiguresDecoder f : car.fuelFigures())
        {
            fuelFigures.add(new BenchCar.FuelFigure(f.speed(), f.mpg()));
        }
        final List<BenchCar.PerformanceFigure> performanceFigures = new ArrayList<>();
        for (final CarDecoder.PerformanceFiguresDecoder p : car.performanceFigures())
        {
            final short octaneRating = p.octaneRating();
            final List<BenchCar.Acceleration> acceleration = new ArrayList<>();
            for (final CarDecoder.PerformanceFiguresDecoder.AccelerationDecoder a : p.acceleration())
            {
                acceleration.add(new BenchCar.Acceleration(a.mph(), a.seconds()));
            }
            performanceFigures.add(new BenchCar.PerformanceFigure(octaneRating, acceleration));
        }
        final byte[] manufacturer = new byte[car.manufacturerLength()];
        car.getManufacturer(manufacturer, 0, manufacturer.length);
        final byte[] model = new byte[car.modelLength()];
        car.getModel(model, 0, model.length);

        return new BenchCar(serialNumber, modelYear, available, code, someNumbers, vehicleCode, extras,
            capacity, numCylinders, maxRpm, manufacturerCode, fuel, fuelFigures, performanceFigures,
            new String(manufacturer, ISO_8859_1), new String(model, ISO_8859_1));
    }
}
