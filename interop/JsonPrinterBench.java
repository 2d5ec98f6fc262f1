import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import uk.co.real_logic.sbe.SbeTool;
import uk.co.real_logic.sbe.ir.*;
import uk.co.real_logic.sbe.json.JsonPrinter;
import uk.co.real_logic.sbe.otf.*;
import uk.co.real_logic.sbe.xml.*;

import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.util.*;

/**
 * The reference side of the decode-to-JSON benchmark (conformance/README.md, "Benchmark"): the
 * reference implementation's OtfMessageDecoder and JsonPrinter over a buffer of back-to-back SBE
 * messages, on one thread, printing each message into one reused StringBuilder.
 *
 * <pre>
 *   java -cp sbe-all.jar:classes JsonPrinterBench SCHEMA.xml MESSAGES.bin [options]
 *       MESSAGES.bin holds raw messages back to back (header, body; no framing)
 *   java -cp sbe-all.jar:classes JsonPrinterBench SCHEMA.xml --vector FILE.jsonl NAME [--count N] [options]
 *       the input is N copies (default 1000) of the conformance vector NAME's hex
 *   java -cp sbe-all.jar:classes JsonPrinterBench SCHEMA.xml --vector FILE.jsonl NAME --count N --write OUT.bin
 *       write that input to OUT.bin (for Sable's side of the benchmark) and exit
 *
 *   options: --warmup SECONDS (default 5)  --time SECONDS (default 10)  --check (print the
 *   first message's JSON to stderr)
 * </pre>
 *
 * Prints one line: messages, bytes, passes, messages/s, MB/s (10^6 bytes of SBE input per
 * second), and the JSON characters printed per pass. Exit 2 on bad usage, 1 on failure.
 */
public class JsonPrinterBench {
    static void usage() {
        System.err.println("usage: JsonPrinterBench SCHEMA.xml (MESSAGES.bin | --vector FILE.jsonl NAME [--count N] [--write OUT.bin])");
        System.err.println("                        [--warmup SECONDS] [--time SECONDS] [--check]");
        System.exit(2);
    }

    /** The vector's "hex" value, found in its line without a JSON library. */
    static byte[] vectorBytes(Path file, String name) throws Exception {
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            if (line.startsWith("{\"name\":\"" + name + "\",")) {
                int at = line.lastIndexOf("\"hex\":\"");
                String hex = line.substring(at + 7, line.indexOf('"', at + 7));
                byte[] out = new byte[hex.length() / 2];
                for (int i = 0; i < out.length; i++) {
                    out[i] = (byte)Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
                }
                return out;
            }
        }
        throw new IllegalArgumentException("no vector named " + name + " in " + file);
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            usage();
        }
        String schemaPath = args[0];
        byte[] input = null;
        Path vectorFile = null;
        String vectorName = null;
        int count = 1000;
        Path write = null;
        double warmup = 5;
        double time = 10;
        boolean check = false;
        for (int i = 1; i < args.length; i++) {
            switch (args[i]) {
                case "--vector":
                    if (i + 2 >= args.length) {
                        usage();
                    }
                    vectorFile = Paths.get(args[++i]);
                    vectorName = args[++i];
                    break;
                case "--count": count = Integer.parseInt(args[++i]); break;
                case "--write": write = Paths.get(args[++i]); break;
                case "--warmup": warmup = Double.parseDouble(args[++i]); break;
                case "--time": time = Double.parseDouble(args[++i]); break;
                case "--check": check = true; break;
                default:
                    if (args[i].startsWith("--") || input != null) {
                        usage();
                    }
                    input = Files.readAllBytes(Paths.get(args[i]));
            }
        }
        if (vectorFile != null) {
            byte[] one = vectorBytes(vectorFile, vectorName);
            input = new byte[one.length * count];
            for (int i = 0; i < count; i++) {
                System.arraycopy(one, 0, input, i * one.length, one.length);
            }
            if (write != null) {
                Files.write(write, input);
                return;
            }
        }
        if (input == null || input.length == 0) {
            usage();
        }

        System.setProperty("sbe.xinclude.aware", "true");
        MessageSchema schema = SbeTool.parseSchema(schemaPath);
        Ir ir = new IrGenerator().generate(schema, null);
        UnsafeBuffer buffer = new UnsafeBuffer(input);

        // Where each message starts, found once by the reference's decoder (not timed).
        OtfHeaderDecoder header = new OtfHeaderDecoder(ir.headerStructure());
        TokenListener nothing = new AbstractTokenListener() {
        };
        List<Integer> starts = new ArrayList<>();
        int offset = 0;
        while (offset < input.length) {
            starts.add(offset);
            List<Token> tokens = ir.getMessage(header.getTemplateId(buffer, offset));
            if (tokens == null) {
                throw new IllegalStateException("unknown template id " + header.getTemplateId(buffer, offset)
                    + " at byte " + offset);
            }
            offset = OtfMessageDecoder.decode(buffer, offset + header.encodedLength(),
                header.getSchemaVersion(buffer, offset), header.getBlockLength(buffer, offset), tokens, nothing);
        }
        int[] at = starts.stream().mapToInt(Integer::intValue).toArray();

        JsonPrinter printer = new JsonPrinter(ir);
        StringBuilder out = new StringBuilder(1 << 16);
        if (check) {
            printer.print(out, buffer, 0);
            System.err.println(out);
        }

        long chars = 0;
        long deadline = System.nanoTime() + (long)(warmup * 1e9);
        while (System.nanoTime() < deadline) {
            chars = pass(printer, buffer, at, out);
        }
        long passes = 0;
        long start = System.nanoTime();
        long end;
        do {
            chars = pass(printer, buffer, at, out);
            passes++;
            end = System.nanoTime();
        } while (end - start < (long)(time * 1e9));
        double seconds = (end - start) / 1e9;
        double messages = (double)passes * at.length;
        System.out.printf(Locale.ROOT,
            "reference JsonPrinter: %d messages, %d bytes, %d passes in %.2f s: %.0f messages/s, %.1f MB/s (%d JSON chars per pass)%n",
            at.length, input.length, passes, seconds, messages / seconds, (double)passes * input.length / seconds / 1e6, chars);
    }

    /** Prints every message once; returns the characters printed (so the work is used). */
    static long pass(JsonPrinter printer, DirectBuffer buffer, int[] at, StringBuilder out) {
        long chars = 0;
        for (int offset : at) {
            out.setLength(0);
            printer.print(out, buffer, offset);
            chars += out.length();
        }
        return chars;
    }
}
