package dev.sable.interop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Sable's codecs and the reference's read each other's messages: every writer's bytes are decoded
 * by every reader (reference, Sable over heap memory, Sable over off-heap memory), every field
 * compared with what was written; and every writer writes exactly the same bytes.
 */
class InteropTest
{
    static Stream<Arguments> exampleBaseline()
    {
        return Stream.of(
            Arguments.of(Named.of("typical", Samples.baselineTypical())),
            Arguments.of(Named.of("largest values, empty groups and var data", Samples.baselineMax())),
            Arguments.of(Named.of("smallest values, special floats, UTF-8", Samples.baselineSpecial())));
    }

    static Stream<Arguments> exampleExtension()
    {
        return Stream.of(
            Arguments.of(Named.of("typical", Samples.extensionTypical())),
            Arguments.of(Named.of("null optionals, largest values, empty groups", Samples.extensionNulls())),
            Arguments.of(Named.of("extreme optionals, special floats", Samples.extensionExtremes())));
    }

    static Stream<Arguments> benchCar()
    {
        return Stream.of(
            Arguments.of(Named.of("the benchmark's message", Samples.benchCarTypical())),
            Arguments.of(Named.of("largest and smallest values, empty groups and var data", Samples.benchCarMax())),
            Arguments.of(Named.of("special floats, empty nested group, Latin-1", Samples.benchCarSpecial())));
    }

    static Stream<Arguments> marketData()
    {
        return Stream.of(
            Arguments.of(Named.of("the benchmark's message", Samples.marketDataTypical())),
            Arguments.of(Named.of("largest and smallest values", Samples.marketDataExtremes())),
            Arguments.of(Named.of("no entries", Samples.marketDataEmpty())));
    }

    @ParameterizedTest
    @MethodSource
    void exampleBaseline(final ExampleCar car)
    {
        everyWriterEveryReader(Codecs.baseline(), car);
    }

    @ParameterizedTest
    @MethodSource
    void exampleExtension(final ExampleCar car)
    {
        everyWriterEveryReader(Codecs.extension(), car);
    }

    @ParameterizedTest
    @MethodSource
    void benchCar(final BenchCar car)
    {
        everyWriterEveryReader(Codecs.benchCar(), car);
    }

    @ParameterizedTest
    @MethodSource
    void marketData(final MarketData marketData)
    {
        everyWriterEveryReader(Codecs.marketData(), marketData);
    }

    static <T> void everyWriterEveryReader(final List<MessageCodec<T>> codecs, final T value)
    {
        final MessageCodec<T> first = codecs.get(0);
        final byte[] firstBytes = first.encode(value);
        for (final MessageCodec<T> writer : codecs)
        {
            final byte[] bytes = writer.encode(value);
            assertArrayEquals(firstBytes, bytes, () -> writer.name() + " writes other bytes than " + first.name() +
                ":\n" + hex(bytes) + "\n" + hex(firstBytes));
            for (final MessageCodec<T> reader : codecs)
            {
                assertEquals(value, reader.decode(bytes), () -> writer.name() + " -> " + reader.name());
            }
        }
    }

    static String hex(final byte[] bytes)
    {
        return HexFormat.of().formatHex(bytes);
    }
}
