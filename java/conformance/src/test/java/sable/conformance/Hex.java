package sable.conformance;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.HexFormat;
import org.agrona.DirectBuffer;

/** Hex text to and from bytes, for the generated vector tests. */
final class Hex
{
    private Hex()
    {
    }

    /**
     * Bytes from lowercase or uppercase hex.
     *
     * @param hex two digits per byte.
     * @return the bytes.
     */
    static byte[] parse(final String hex)
    {
        return HexFormat.of().parseHex(hex);
    }

    /**
     * Bytes as lowercase hex.
     *
     * @param bytes the bytes.
     * @return the hex.
     */
    static String of(final byte[] bytes)
    {
        return HexFormat.of().formatHex(bytes);
    }

    /**
     * The first bytes of a segment as lowercase hex.
     *
     * @param segment the segment.
     * @param length how many bytes.
     * @return the hex.
     */
    static String of(final MemorySegment segment, final int length)
    {
        return of(segment.asSlice(0, length).toArray(ValueLayout.JAVA_BYTE));
    }

    /**
     * The first bytes of an Agrona buffer as lowercase hex.
     *
     * @param buffer the buffer.
     * @param length how many bytes.
     * @return the hex.
     */
    static String of(final DirectBuffer buffer, final int length)
    {
        final byte[] bytes = new byte[length];
        buffer.getBytes(0, bytes);
        return of(bytes);
    }
}
