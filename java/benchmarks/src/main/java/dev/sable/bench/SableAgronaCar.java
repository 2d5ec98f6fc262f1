package dev.sable.bench;

import static dev.sable.bench.CarMessage.*;

import org.agrona.concurrent.UnsafeBuffer;
import sableagrona.benchcar.BooleanType;
import sableagrona.benchcar.CarDecoder;
import sableagrona.benchcar.CarEncoder;
import sableagrona.benchcar.EngineDecoder;
import sableagrona.benchcar.MessageHeaderDecoder;
import sableagrona.benchcar.MessageHeaderEncoder;
import sableagrona.benchcar.Model;
import sableagrona.benchcar.OptionalExtrasDecoder;

/** The Car message through Sable's generated Java codecs, Agrona flavour (over UnsafeBuffer). */
final class SableAgronaCar
{
    final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    final CarEncoder encoder = new CarEncoder();
    final CarDecoder decoder = new CarDecoder();
    final byte[] scratch = new byte[128];

    /** Encodes the message at offset 0; returns its length, header included. */
    int encode(final UnsafeBuffer buffer)
    {
        final CarEncoder car = encoder;
        car.wrapAndApplyHeader(buffer, 0, headerEncoder)
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
    long decode(final UnsafeBuffer buffer)
    {
        final MessageHeaderDecoder header = headerDecoder.wrap(buffer, 0);
        final CarDecoder car = decoder;
        car.wrap(buffer, MessageHeaderDecoder.ENCODED_LENGTH, header.blockLength(), header.version());
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
}
