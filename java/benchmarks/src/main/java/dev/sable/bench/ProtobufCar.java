package dev.sable.bench;

import static dev.sable.bench.CarMessage.*;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.sable.bench.proto.CarProtos.Car;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The Car message through protobuf-java, as its authors advise for speed: one reused builder
 * (cleared, not reallocated), serialised straight into a preallocated byte[] through a
 * CodedOutputStream, parsed from a byte[] range by the generated parser; repeated fields read by
 * index (no list views).
 */
final class ProtobufCar
{
    final Car.Builder builder = Car.newBuilder();

    /** Encodes the message into buffer at offset 0; returns its length. */
    int encode(final byte[] buffer)
    {
        final Car.Builder car = builder.clear();
        car.setSerialNumber((int)SERIAL_NUMBER)
            .setModelYear(MODEL_YEAR)
            .setAvailable(true)
            .setCode(Car.Model.A);
        for (int i = 0; i < 5; i++)
        {
            car.addSomeNumbers(i);
        }
        car.setVehicleCode(VEHICLE_CODE_TEXT)
            .addExtras(Car.Extras.SUN_ROOF)
            .addExtras(Car.Extras.SPORTS_PACK);
        car.getEngineBuilder()
            .setCapacity(ENGINE_CAPACITY)
            .setNumCylinders(ENGINE_CYLINDERS)
            .setManufacturerCode(ENGINE_MANUFACTURER_CODE_TEXT);
        for (int i = 0; i < FUEL_SPEED.length; i++)
        {
            car.addFuelFiguresBuilder().setSpeed(FUEL_SPEED[i]).setMpg(FUEL_MPG[i]);
        }
        for (int i = 0; i < OCTANE_RATING.length; i++)
        {
            final Car.PerformanceFigures.Builder performanceFigures =
                car.addPerformanceFiguresBuilder().setOctaneRating(OCTANE_RATING[i]);
            final float[] seconds = ACCELERATION_SECONDS[i];
            for (int j = 0; j < ACCELERATION_MPH.length; j++)
            {
                performanceFigures.addAccelerationBuilder().setMph(ACCELERATION_MPH[j]).setSeconds(seconds[j]);
            }
        }
        car.setManufacturer(MANUFACTURER_TEXT).setModel(MODEL_TEXT);

        final Car message = car.build();
        final CodedOutputStream out = CodedOutputStream.newInstance(buffer);
        try
        {
            message.writeTo(out);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        return out.getTotalBytesWritten();
    }

    /** Parses the message from buffer[0, length), reading every field; returns their sum. */
    static long decode(final byte[] buffer, final int length)
    {
        final Car car;
        try
        {
            car = Car.parser().parseFrom(buffer, 0, length);
        }
        catch (final InvalidProtocolBufferException ex)
        {
            throw new IllegalStateException(ex);
        }

        long sum = car.getSerialNumber();
        sum += car.getModelYear();
        sum += car.getAvailable() ? 1 : 0;
        sum += car.getCodeValue();
        for (int i = 0, size = car.getSomeNumbersCount(); i < size; i++)
        {
            sum += car.getSomeNumbers(i);
        }
        sum += car.getVehicleCode().length();
        for (int i = 0, size = car.getExtrasCount(); i < size; i++)
        {
            sum += car.getExtrasValue(i);
        }
        final Car.Engine engine = car.getEngine();
        sum += engine.getCapacity();
        sum += engine.getNumCylinders();
        sum += engine.getManufacturerCode().length();
        for (int i = 0, size = car.getFuelFiguresCount(); i < size; i++)
        {
            final Car.FuelFigures fuelFigures = car.getFuelFigures(i);
            sum += fuelFigures.getSpeed();
            sum += Float.floatToRawIntBits(fuelFigures.getMpg());
        }
        for (int i = 0, size = car.getPerformanceFiguresCount(); i < size; i++)
        {
            final Car.PerformanceFigures performanceFigures = car.getPerformanceFigures(i);
            sum += performanceFigures.getOctaneRating();
            for (int j = 0, count = performanceFigures.getAccelerationCount(); j < count; j++)
            {
                final Car.PerformanceFigures.Acceleration acceleration = performanceFigures.getAcceleration(j);
                sum += acceleration.getMph();
                sum += Float.floatToRawIntBits(acceleration.getSeconds());
            }
        }
        sum += car.getManufacturer().length();
        sum += car.getModel().length();
        return sum;
    }
}
