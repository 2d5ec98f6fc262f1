import uk.co.real_logic.sbe.PrimitiveType;
import uk.co.real_logic.sbe.PrimitiveValue;
import uk.co.real_logic.sbe.SbeTool;
import uk.co.real_logic.sbe.ir.*;
import uk.co.real_logic.sbe.xml.*;
import java.util.*;

/**
 * The interop oracle: prints the reference implementation's IR in the one-line-per-token text
 * form of Sable's {@code sable_ir::dump} (crates/sable-ir/src/dump.rs; the two must stay
 * identical, field for field). Values print as the reference's {@code PrimitiveValue.toString()}
 * with two exceptions, see {@link #v}.
 *
 * <pre>
 *   java -cp sbe-all.jar:classes IrDump xml SCHEMA.xml [OUT.sbeir]
 *       parse SCHEMA.xml with the reference (XInclude on), print its IR, and if OUT.sbeir is
 *       given write the reference's .sbeir file of it there
 *   java -cp sbe-all.jar:classes IrDump sbeir FILE.sbeir
 *       decode FILE.sbeir with the reference's IrDecoder and print its IR
 * </pre>
 *
 * Exits 0 on success, 1 when the reference fails (message on stderr), 2 on bad usage.
 */
public class IrDump {
    /** Text as Sable's dump writes it: null is empty; \, newline, CR and tab escaped. */
    static String s(Object o) {
        if (o == null) {
            return "";
        }
        return o.toString().replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t");
    }

    /**
     * A value as Sable's dump prints it: the reference's {@code PrimitiveValue.toString()},
     * except that a uint64 prints unsigned (the reference keeps it in a long and prints it
     * negative) and a byte array is decoded in the token's character encoding (the reference's
     * IrDecoder labels every byte array US-ASCII, whatever the token says).
     */
    static String v(PrimitiveValue value, Encoding e) {
        if (value == null) {
            return "";
        }
        if (value.representation() == PrimitiveValue.Representation.LONG && e.primitiveType() == PrimitiveType.UINT64) {
            return Long.toUnsignedString(value.longValue());
        }
        if (value.representation() == PrimitiveValue.Representation.BYTE_ARRAY) {
            String charset = e.characterEncoding() != null ? e.characterEncoding() : value.characterEncoding();
            if (charset != null) {
                try {
                    return s(new String(value.byteArrayValue(), charset));
                } catch (java.io.UnsupportedEncodingException ex) {
                    // Fall through to the reference's own rendering.
                }
            }
        }
        return s(value);
    }

    static void dump(List<Token> tokens, StringBuilder out) {
        for (Token t : tokens) {
            Encoding e = t.encoding();
            out.append(t.signal()).append(" name=").append(s(t.name()))
                .append(" ref=").append(s(t.referencedName()))
                .append(" id=").append(t.id()).append(" version=").append(t.version())
                .append(" deprecated=").append(t.deprecated())
                .append(" length=").append(t.encodedLength()).append(" offset=").append(t.offset())
                .append(" components=").append(t.componentTokenCount())
                .append(" presence=").append(e.presence())
                .append(" type=").append(e.primitiveType() == null ? "NONE" : e.primitiveType().name())
                .append(" order=").append(e.byteOrder())
                .append(" min=").append(v(e.minValue(), e)).append(" max=").append(v(e.maxValue(), e))
                .append(" null=").append(v(e.nullValue(), e)).append(" const=").append(v(e.constValue(), e))
                .append(" charset=").append(s(e.characterEncoding())).append(" epoch=").append(s(e.epoch()))
                .append(" timeUnit=").append(s(e.timeUnit())).append(" semanticType=").append(s(e.semanticType()))
                .append(" description=").append(s(t.description())).append('\n');
        }
    }

    static String dump(Ir ir) {
        StringBuilder out = new StringBuilder();
        out.append("SCHEMA package=").append(s(ir.packageName()))
            .append(" namespace=").append(s(ir.namespaceName()))
            .append(" id=").append(ir.id()).append(" version=").append(ir.version())
            .append(" semanticVersion=").append(s(ir.semanticVersion()))
            .append(" order=").append(ir.byteOrder()).append('\n');
        dump(ir.headerStructure().tokens(), out);
        for (List<Token> m : ir.messages()) {
            dump(m, out);
        }
        return out.toString();
    }

    static void usage() {
        System.err.println("usage: IrDump xml SCHEMA.xml [OUT.sbeir]");
        System.err.println("       IrDump sbeir FILE.sbeir");
        System.exit(2);
    }

    public static void main(String[] args) {
        if (args.length < 2) {
            usage();
        }
        try {
            Ir ir;
            if (args[0].equals("xml") && args.length <= 3) {
                System.setProperty("sbe.xinclude.aware", "true");
                MessageSchema schema = SbeTool.parseSchema(args[1]);
                ir = new IrGenerator().generate(schema, null);
            } else if (args[0].equals("sbeir") && args.length == 2) {
                try (IrDecoder d = new IrDecoder(args[1])) {
                    ir = d.decode();
                }
            } else {
                usage();
                return;
            }
            String text = dump(ir);
            if (args.length > 2) {
                try (IrEncoder enc = new IrEncoder(args[2], ir)) {
                    enc.encode();
                }
            }
            System.out.print(text);
            System.out.flush();
        } catch (Throwable t) {
            System.out.flush();
            System.err.println("IrDump " + String.join(" ", args) + ": " + t);
            t.printStackTrace(System.err);
            System.exit(1);
        }
    }
}
