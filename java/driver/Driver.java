package sable.driver;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;

import sable.driver.codecs.SbeDecodeException;
import sable.driver.codecs.SbeSchemaDecoder;

/**
 * The Java codec driver (scripts/codec-driver.sh): reads one message per line as hex on standard
 * input ({@code -} alone: the empty message), decodes it through the generated codecs' schema-level entry point (SbeSchemaDecoder, in
 * the package sable.driver.codecs), and writes one line per message: its canonical JSON, or
 * {"error":{"offset":N,"field":"...","kind":"...","message":"..."}}. Built by
 * scripts/drivers/java.sh with Message.java of the buffer flavour (segment/ or agrona/).
 */
public final class Driver
{
    private Driver()
    {
    }

    /**
     * Runs the driver.
     *
     * @param args none.
     * @throws IOException when standard input or output fails.
     */
    public static void main(final String[] args) throws IOException
    {
        final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        final Writer out = new OutputStreamWriter(System.out, StandardCharsets.UTF_8);
        final SbeSchemaDecoder decoder = new SbeSchemaDecoder();
        final StringBuilder builder = new StringBuilder();
        int lineNumber = 0;
        String line;
        while ((line = in.readLine()) != null)
        {
            lineNumber++;
            final String hex = line.strip();
            if (hex.isEmpty())
            {
                continue;
            }
            final byte[] bytes = parseHex(hex);
            if (bytes == null)
            {
                System.err.println("java driver: line " + lineNumber + " is neither hex nor -");
                out.flush();
                System.exit(2);
            }
            builder.setLength(0);
            try
            {
                Message.appendJson(decoder, bytes, builder);
            }
            catch (final SbeDecodeException ex)
            {
                builder.setLength(0);
                ex.appendJson(builder.append("{\"error\":")).append('}');
            }
            catch (final RuntimeException ex)
            {
                // Not an error the contract knows: a bug in the codecs. Reported on its line so
                // that the runner shows it against the message.
                builder.setLength(0);
                builder.append("{\"error\":{\"offset\":-1,\"field\":\"\",\"kind\":\"exception\",\"message\":\"")
                    .append(String.valueOf(ex).replace("\\", "\\\\").replace("\"", "\\\"").replaceAll("[\\x00-\\x1f]", " "))
                    .append("\"}}");
            }
            out.write(builder.toString());
            out.write('\n');
            out.flush();
        }
        out.flush();
    }

    /**
     * The bytes of a hex string (either case), or none for {@code -} (the empty message).
     *
     * @param hex the text.
     * @return the bytes, or null when it is neither {@code -} nor an even number of hex digits.
     */
    private static byte[] parseHex(final String hex)
    {
        if (hex.equals("-"))
        {
            return new byte[0];
        }
        if (hex.length() % 2 != 0)
        {
            return null;
        }
        final byte[] bytes = new byte[hex.length() / 2];
        for (int i = 0; i < bytes.length; i++)
        {
            final int high = Character.digit(hex.charAt(2 * i), 16);
            final int low = Character.digit(hex.charAt(2 * i + 1), 16);
            if (high < 0 || low < 0)
            {
                return null;
            }
            bytes[i] = (byte) (high << 4 | low);
        }
        return bytes;
    }
}
