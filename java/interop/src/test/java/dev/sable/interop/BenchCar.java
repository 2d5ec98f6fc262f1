package dev.sable.interop;

import java.util.List;

/**
 * Every field of a Car of bench-car.xml (the reference's benchmark schema), as ExampleCar is for
 * the example schemas: enums and sets raw, text decoded.
 */
record BenchCar(
    long serialNumber,
    int modelYear,
    short available,
    byte code,
    List<Integer> someNumbers,
    String vehicleCode,
    short extras,
    int engineCapacity,
    short engineNumCylinders,
    int engineMaxRpm,
    String engineManufacturerCode,
    String engineFuel,
    List<FuelFigure> fuelFigures,
    List<PerformanceFigure> performanceFigures,
    String manufacturer,
    String model)
{
    record FuelFigure(int speed, float mpg)
    {
    }

    record PerformanceFigure(short octaneRating, List<Acceleration> acceleration)
    {
    }

    record Acceleration(int mph, float seconds)
    {
    }
}
