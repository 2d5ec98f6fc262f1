package dev.sable.interop;

import java.nio.charset.Charset;

/** Text helpers shared by the codec adapters. */
final class Text
{
    private Text()
    {
    }

    /** A char array's bytes up to the first NUL (the rest is padding), decoded. */
    static String charArray(final byte[] bytes, final int length, final Charset charset)
    {
        int end = 0;
        while (end < length && bytes[end] != 0)
        {
            end++;
        }
        return new String(bytes, 0, end, charset);
    }
}
