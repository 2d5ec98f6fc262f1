package dev.sable.interop;

import java.util.List;

/**
 * Every field of a Car of example-schema.xml (package baseline) or example-extension-schema.xml
 * (package extension), as a decoder reads it: enums and sets by their raw encoded values (so that
 * a reader of another version, which may find values no enum names, still compares), char arrays
 * up to their first NUL, var data decoded by the schema's character encoding. uuid and
 * cupHolderCount exist in the extension only: null for the baseline.
 */
record ExampleCar(
    long serialNumber,
    int modelYear,
    short available,
    byte code,
    List<Long> someNumbers,
    String vehicleCode,
    short extras,
    byte discountedModel,
    Engine engine,
    List<Long> uuid,
    Short cupHolderCount,
    List<FuelFigure> fuelFigures,
    List<PerformanceFigure> performanceFigures,
    String manufacturer,
    String model,
    String activationCode)
{
    record Engine(
        int capacity,
        short numCylinders,
        int maxRpm,
        String manufacturerCode,
        String fuel,
        byte efficiency,
        short boosterEnabled,
        byte boostType,
        short horsePower)
    {
    }

    record FuelFigure(int speed, float mpg, String usageDescription)
    {
    }

    record PerformanceFigure(short octaneRating, List<Acceleration> acceleration)
    {
    }

    record Acceleration(int mph, float seconds)
    {
    }
}
