package dev.sable.interop.alloc;

import java.nio.charset.StandardCharsets;

/**
 *
 * The Car message every Car benchmark encodes and decodes, with the values of the reference
 * implementation's own Car benchmark: the root fields, 3 fuel figures, 2 performance figures of 3
 * accelerations each, manufacturer "MANUFACTURER" and model "MODEL".
 *
 * <p>A copy of java/benchmarks' class of this name (the benchmarks are a module of their own).
 */
final class CarMessage
{
    static final long SERIAL_NUMBER = 12345;
    static final int MODEL_YEAR = 2005;
    static final String VEHICLE_CODE_TEXT = "abcdef";
    static final String ENGINE_MANUFACTURER_CODE_TEXT = "abc";
    static final String MANUFACTURER_TEXT = "MANUFACTURER";
    static final String MODEL_TEXT = "MODEL";
    static final byte[] VEHICLE_CODE = VEHICLE_CODE_TEXT.getBytes(StandardCharsets.US_ASCII);
    static final byte[] ENGINE_MANUFACTURER_CODE = ENGINE_MANUFACTURER_CODE_TEXT.getBytes(StandardCharsets.US_ASCII);
    static final byte[] MANUFACTURER = MANUFACTURER_TEXT.getBytes(StandardCharsets.ISO_8859_1);
    static final byte[] MODEL = MODEL_TEXT.getBytes(StandardCharsets.ISO_8859_1);
    static final int ENGINE_CAPACITY = 4200;
    static final short ENGINE_CYLINDERS = 8;

    static final int[] FUEL_SPEED = {30, 55, 75};
    static final float[] FUEL_MPG = {35.9f, 49.0f, 40.0f};

    static final short[] OCTANE_RATING = {95, 99};
    static final int[] ACCELERATION_MPH = {30, 60, 100};
    static final float[][] ACCELERATION_SECONDS = {{4.0f, 7.5f, 12.2f}, {3.8f, 7.1f, 11.8f}};

    private CarMessage()
    {
    }
}
