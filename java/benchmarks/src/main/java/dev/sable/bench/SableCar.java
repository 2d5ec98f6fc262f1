package dev.sable.bench;

import static dev.sable.bench.CarMessage.*;

import java.lang.foreign.MemorySegment;
import sable.benchcar.BooleanType;
import sable.benchcar.CarDecoder;
import sable.benchcar.CarEncoder;
import sable.benchcar.EngineDecoder;
import sable.benchcar.MessageHeaderDecoder;
import sable.benchcar.MessageHeaderEncoder;
import sable.benchcar.Model;
import sable.benchcar.OptionalExtrasDecoder;

/** The Car message through Sable's generated Java codecs (over a MemorySegment). */
final class SableCar
{
    final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    final CarEncoder encoder = new CarEncoder();
    final CarDecoder decoder = new CarDecoder();
    final byte[] scratch = new byte[128];

    /** Encodes the message at offset 0; returns its length, header included. */
    int encode(final MemorySegment segment)
    {
        final CarEncoder car = encoder;
        car.wrapAndApplyHeader(segment, 0, headerEncoder)
            .serialNumber(SERIAL_NUMBER)
            .modelYear(MODEL_YEAR)
            .available(BooleanType.T)
            .code(Model.A);
        for (int i = 0, size = CarEncoder.someNumbersLength(); i < size; i++)
        {
            car.someNumbers(i, i);
        }
        car.putVehicleCode(VEHICLE_CODE, 0);
        car.extras().clear().sunRoof(true).sportsPack(true);
        car.engine()
            .capacity(ENGINE_CAPACITY)
            .numCylinders(ENGINE_CYLINDERS)
            .putManufacturerCode(ENGINE_MANUFACTURER_CODE, 0);

        final CarEncoder.FuelFiguresEncoder fuelFigures = car.fuelFiguresCount(FUEL_SPEED.length);
        for (int i = 0; i < FUEL_SPEED.length; i++)
        {
            fuelFigures.next().speed(FUEL_SPEED[i]).mpg(FUEL_MPG[i]);
        }

        final CarEncoder.PerformanceFiguresEncoder performanceFigures =
            car.performanceFiguresCount(OCTANE_RATING.length);
        for (int i = 0; i < OCTANE_RATING.length; i++)
        {
            performanceFigures.next().octaneRating(OCTANE_RATING[i]);
            final CarEncoder.PerformanceFiguresEncoder.AccelerationEncoder acceleration =
                performanceFigures.accelerationCount(ACCELERATION_MPH.length);
            final float[] seconds = ACCELERATION_SECONDS[i];
            for (int j = 0; j < ACCELERATION_MPH.length; j++)
            {
                acceleration.next().mph(ACCELERATION_MPH[j]).seconds(seconds[j]);
            }
        }

        car.putManufacturer(MANUFACTURER, 0, MANUFACTURER.length);
        car.putModel(MODEL, 0, MODEL.length);
        return MessageHeaderEncoder.ENCODED_LENGTH + car.encodedLength();
    }

    /** Decodes the message at offset 0, reading every field; returns the sum of their values. */
    long decode(final MemorySegment segment)
    {
        final MessageHeaderDecoder header = headerDecoder.wrap(segment, 0);
        final CarDecoder car = decoder;
        car.wrap(segment, MessageHeaderDecoder.ENCODED_LENGTH, header.blockLength(), header.version());
        final byte[] scratch = this.scratch;

        long sum = header.templateId();
        sum += car.serialNumber();
        sum += car.modelYear();
        sum += car.available().value();
        sum += car.code().value();
        for (int i = 0, size = CarDecoder.someNumbersLength(); i < size; i++)
        {
            sum += car.someNumbers(i);
        }
        sum += car.getVehicleCode(scratch, 0);
        final OptionalExtrasDecoder extras = car.extras();
        sum += (extras.sunRoof() ? 1 : 0) + (extras.sportsPack() ? 2 : 0) + (extras.cruiseControl() ? 4 : 0);

        final EngineDecoder engine = car.engine();
        sum += engine.capacity();
        sum += engine.numCylinders();
        sum += engine.maxRpm();
        sum += engine.getManufacturerCode(scratch, 0);
        sum += EngineDecoder.fuel().length();

        for (final CarDecoder.FuelFiguresDecoder fuelFigures : car.fuelFigures())
        {
            sum += fuelFigures.speed();
            sum += Float.floatToRawIntBits(fuelFigures.mpg());
        }
        for (final CarDecoder.PerformanceFiguresDecoder performanceFigures : car.performanceFigures())
        {
            sum += performanceFigures.octaneRating();
            for (final CarDecoder.PerformanceFiguresDecoder.AccelerationDecoder acceleration :
                performanceFigures.acceleration())
            {
                sum += acceleration.mph();
                sum += Float.floatToRawIntBits(acceleration.seconds());
            }
        }

        sum += car.getManufacturer(scratch, 0, scratch.length);
        sum += car.getModel(scratch, 0, scratch.length);
        return sum;
    }

    /**
     * The same encoding as encode, split into three methods (root block, groups, var data) so
     * that each stays under C2's inlining budget over native segments (docs/java.md).
     */
    int encodeSplit(final MemorySegment segment)
    {
        encodeRoot(segment);
        encodeGroups();
        encodeVarData();
        return MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
    }

    private void encodeRoot(final MemorySegment segment)
    {
        final CarEncoder car = encoder;
        car.wrapAndApplyHeader(segment, 0, headerEncoder)
            .serialNumber(SERIAL_NUMBER)
            .modelYear(MODEL_YEAR)
            .available(BooleanType.T)
            .code(Model.A);
        for (int i = 0, size = CarEncoder.someNumbersLength(); i < size; i++)
        {
            car.someNumbers(i, i);
        }
        car.putVehicleCode(VEHICLE_CODE, 0);
        car.extras().clear().sunRoof(true).sportsPack(true);
        car.engine()
            .capacity(ENGINE_CAPACITY)
            .numCylinders(ENGINE_CYLINDERS)
            .putManufacturerCode(ENGINE_MANUFACTURER_CODE, 0);
    }

    private void encodeGroups()
    {
        final CarEncoder car = encoder;
        final CarEncoder.FuelFiguresEncoder fuelFigures = car.fuelFiguresCount(FUEL_SPEED.length);
        for (int i = 0; i < FUEL_SPEED.length; i++)
        {
            fuelFigures.next().speed(FUEL_SPEED[i]).mpg(FUEL_MPG[i]);
        }
        final CarEncoder.PerformanceFiguresEncoder performanceFigures =
            car.performanceFiguresCount(OCTANE_RATING.length);
        for (int i = 0; i < OCTANE_RATING.length; i++)
        {
            performanceFigures.next().octaneRating(OCTANE_RATING[i]);
            final CarEncoder.PerformanceFiguresEncoder.AccelerationEncoder acceleration =
                performanceFigures.accelerationCount(ACCELERATION_MPH.length);
            final float[] seconds = ACCELERATION_SECONDS[i];
            for (int j = 0; j < ACCELERATION_MPH.length; j++)
            {
                acceleration.next().mph(ACCELERATION_MPH[j]).seconds(seconds[j]);
            }
        }
    }

    private void encodeVarData()
    {
        encoder.putManufacturer(MANUFACTURER, 0, MANUFACTURER.length);
        encoder.putModel(MODEL, 0, MODEL.length);
    }

    /** The same decoding as decode, split into three methods as encodeSplit. */
    long decodeSplit(final MemorySegment segment)
    {
        return decodeRoot(segment) + decodeGroups() + decodeVarData();
    }

    private long decodeRoot(final MemorySegment segment)
    {
        final MessageHeaderDecoder header = headerDecoder.wrap(segment, 0);
        final CarDecoder car = decoder;
        car.wrap(segment, MessageHeaderDecoder.ENCODED_LENGTH, header.blockLength(), header.version());
        final byte[] scratch = this.scratch;

        long sum = header.templateId();
        sum += car.serialNumber();
        sum += car.modelYear();
        sum += car.available().value();
        sum += car.code().value();
        for (int i = 0, size = CarDecoder.someNumbersLength(); i < size; i++)
        {
            sum += car.someNumbers(i);
        }
        sum += car.getVehicleCode(scratch, 0);
        final OptionalExtrasDecoder extras = car.extras();
        sum += (extras.sunRoof() ? 1 : 0) + (extras.sportsPack() ? 2 : 0) + (extras.cruiseControl() ? 4 : 0);

        final EngineDecoder engine = car.engine();
        sum += engine.capacity();
        sum += engine.numCylinders();
        sum += engine.maxRpm();
        sum += engine.getManufacturerCode(scratch, 0);
        sum += EngineDecoder.fuel().length();
        return sum;
    }

    private long decodeGroups()
    {
        long sum = 0;
        for (final CarDecoder.FuelFiguresDecoder fuelFigures : decoder.fuelFigures())
        {
            sum += fuelFigures.speed();
            sum += Float.floatToRawIntBits(fuelFigures.mpg());
        }
        for (final CarDecoder.PerformanceFiguresDecoder performanceFigures : decoder.performanceFigures())
        {
            sum += performanceFigures.octaneRating();
            for (final CarDecoder.PerformanceFiguresDecoder.AccelerationDecoder acceleration :
                performanceFigures.acceleration())
            {
                sum += acceleration.mph();
                sum += Float.floatToRawIntBits(acceleration.seconds());
            }
        }
        return sum;
    }

    private long decodeVarData()
    {
        final byte[] scratch = this.scratch;
        return decoder.getManufacturer(scratch, 0, scratch.length) + decoder.getModel(scratch, 0, scratch.length);
    }
}
