//! `sable`: the command-line front end. Compiles SBE XML message schemas (or reads `.sbeir`
//! files) to IR, decodes and encodes messages on the fly, and generates codecs.

// Unsafe code only where the allocator is set up (two FFI calls).
#![deny(unsafe_code)]

#[cfg(feature = "columnar")]
#[allow(unsafe_code)]
mod alloc;
mod columnar;
mod compat;
mod input;
mod otf;
mod progress;
mod stream;

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use sable_framing::capture::Filter;
use sable_framing::{Framing, SofhForm};

use input::Loaded;

/// Exit status for a schema error, an unreadable input or a failed write.
const EXIT_FAILURE: u8 = 1;
/// Exit status for a usage error (clap uses the same) or a subcommand not implemented yet.
const EXIT_USAGE: u8 = 2;

#[derive(Debug, Parser)]
#[command(
    name = "sable",
    version,
    about = "Sable: a FIX Simple Binary Encoding (SBE) toolkit",
    long_about = "Sable: a FIX Simple Binary Encoding (SBE) toolkit.\n\n\
                  Compiles SBE XML message schemas to IR (a text dump or a .sbeir file), and \
                  decodes and encodes SBE messages by the schema alone (canonical JSON or text). \
                  Every command that takes a schema also accepts a .sbeir file in its place.",
    after_help = "A SCHEMA of \"-\" is read from standard input (its XIncludes resolve from the \
                  current directory).\n\n\
                  Messages from sable start with \"sable: \"; schema diagnostics with \
                  FILE:LINE:COLUMN.\n\n\
                  Exit status: 0 success (warnings allowed), 1 schema errors (or warnings with \
                  --warnings-as-errors) or an unreadable input, 2 usage error or a command not \
                  implemented yet."
)]
struct Cli {
    /// Treat warnings as errors: any warning makes the command fail with exit status 1
    #[arg(long, global = true)]
    warnings_as_errors: bool,

    /// Print no warnings, only errors (warnings still count for --warnings-as-errors)
    #[arg(short, long, global = true)]
    quiet: bool,

    /// The most bytes read for a schema or .sbeir file, its XIncludes counted in: a number of
    /// bytes, or with a suffix K, M or G (powers of 1024: 128M is 128 MiB)
    #[arg(
        long,
        global = true,
        value_name = "SIZE",
        default_value = "64M",
        value_parser = parse_size
    )]
    max_schema_size: u64,

    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Compile a schema to IR: print the IR dump, or write a .sbeir file
    ///
    /// With -o, write the IR as a .sbeir file; with --dump, print the IR dump (one line per
    /// token, see docs/ir.md) to stdout. With neither, print the dump. Diagnostics go to stderr,
    /// sorted by position; with errors, nothing is printed or written.
    Ir(IrArgs),
    /// Compile a schema and only report its diagnostics
    ///
    /// Every diagnostic goes to stderr as FILE:LINE:COLUMN: error|warning: ..., sorted by
    /// position, followed by a one-line summary ("N errors, M warnings").
    Check(CheckArgs),
    /// Generate codecs for a target language (Java, Rust, C++, C#, Go, Python, TypeScript)
    ///
    /// Java: one source file per class under DIR, in the schema's package (its directories
    /// created), over java.lang.foreign.MemorySegment, or Agrona buffers with --java-buffer
    /// agrona (docs/java.md). Rust: one module file, DIR/<package>.rs (docs/rust.md). C++: one
    /// header-only file, DIR/<package>.hpp, and its support header DIR/sable/sbe.hpp
    /// (docs/cpp.md). C#: DIR/<Namespace>.cs and DIR/Sable.Sbe.cs (docs/csharp.md). Go: one
    /// package, DIR/<package>.go and DIR/sbe.go (docs/go.md). Python: one package,
    /// DIR/<package>/ (__init__.py, _sable.py, py.typed), formatted by ruff when it runs
    /// (docs/python.md). TypeScript: one ES module, DIR/<package>.ts, and its support module
    /// DIR/sable.ts (docs/typescript.md). Other languages are not implemented yet (exit status 2).
    Generate(GenerateArgs),
    /// Decode SBE messages to canonical JSON Lines or text, by the schema alone
    ///
    /// Reads a file (or standard input, or a pcap/pcapng capture with --pcap), splits it into
    /// messages by the framing, and prints each as one canonical JSON object per line
    /// (docs/json.md) or as text. A message that fails to decode is printed as far as it went,
    /// with an "error" key, and reported on stderr with its byte offset; decoding goes on with
    /// the next message where the framing allows. Exit status 1 when any input was bad.
    ///
    /// The input streams: each message is printed as soon as its bytes have arrived (a live
    /// pipe, `tcpdump -w - | sable decode --pcap ...`, or a growing file with --follow), in
    /// memory bounded whatever the input's size: only an incomplete message (at most
    /// --max-message-size) or capture record waits (docs/framing.md, "Streams").
    Decode(DecodeArgs),
    /// Encode canonical JSON Lines messages to SBE
    ///
    /// Each non-blank input line is one message in the canonical JSON form (docs/json.md). A
    /// line that does not encode is reported with its line number and left out; exit status 1
    /// when any line was bad.
    ///
    /// The input streams: each message is written (and flushed) as soon as its line is in and
    /// the input has nothing more waiting, so a live pipe sees each message at once; memory is
    /// bounded by the longest line, whatever the input's size.
    Encode(EncodeArgs),
    /// Compare two versions of a schema: what changed, and whether old and new readers and
    /// generated code still agree
    ///
    /// Lists every difference that matters, located in both schemas (FILE:LINE:COLUMN), with
    /// its verdict in three senses: wire backward (a reader built from NEW decodes messages
    /// written with OLD), wire forward (a reader built from OLD decodes messages written with
    /// NEW) and source (code written against OLD's generated API compiles against NEW's).
    /// Exit status 1 when a sense --require names is broken (docs/compat.md).
    Compat(compat::CompatArgs),
}

#[derive(Debug, Args)]
struct IrArgs {
    /// The schema: an SBE XML message schema, or a .sbeir file; "-" for standard input
    #[arg(value_name = "SCHEMA")]
    schema: PathBuf,

    /// Write the IR to FILE as a .sbeir file
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,

    /// Print the IR dump to stdout (the default when -o is not given)
    #[arg(long)]
    dump: bool,
}

#[derive(Debug, Args)]
struct CheckArgs {
    /// The schema: an SBE XML message schema, or a .sbeir file; "-" for standard input
    #[arg(value_name = "SCHEMA")]
    schema: PathBuf,
}

#[derive(Debug, Args)]
struct GenerateArgs {
    /// The target language: java, rust, cpp, csharp, go, python or typescript
    #[arg(long, value_name = "LANG")]
    lang: String,

    /// Java: the buffer type the codecs work over
    #[arg(long, value_enum, default_value_t = JavaBuffer::Segment, value_name = "BUFFER")]
    java_buffer: JavaBuffer,

    /// Java: enums get an SBE_UNKNOWN constant, returned for values with no name instead of
    /// throwing
    #[arg(long)]
    java_unknown_enum: bool,

    /// The package (Java), module (Rust) or namespace (C++, dots for `::`) to generate into,
    /// instead of the schema's
    #[arg(long, visible_alias = "java-package", value_name = "PACKAGE")]
    package: Option<String>,

    /// The directory to write the generated code to
    #[arg(short, long, value_name = "DIR")]
    output: PathBuf,

    /// The schema: an SBE XML message schema, or a .sbeir file; "-" for standard input
    #[arg(value_name = "SCHEMA")]
    schema: PathBuf,
}

/// The buffer type generated Java codecs work over.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum JavaBuffer {
    /// java.lang.foreign.MemorySegment (JDK 22 or later; no dependency)
    Segment,
    /// Agrona DirectBuffer and MutableDirectBuffer
    Agrona,
    /// Agrona's concrete UnsafeBuffer (as the reference's sbe.java.encoding.buffer.type and
    /// decoding.buffer.type set to it): faster, for callers that hold UnsafeBuffers
    AgronaUnsafe,
}

#[derive(Debug, Args)]
struct DecodeArgs {
    /// The schema the messages are encoded with: SBE XML, or a .sbeir file ("-" for standard
    /// input, when the messages come from a file)
    #[arg(long, value_name = "SCHEMA")]
    schema: PathBuf,

    /// How messages are framed: raw (back to back), sofh, mdp3 (one CME MDP 3.0 packet per
    /// datagram or file), or a length prefix such as u16le, u32be+inclusive, u16le+skip2
    /// (see docs/framing.md)
    #[arg(long, default_value = "raw", value_parser = parse_framing, value_name = "FRAMING")]
    framing: Framing,

    /// The form to print messages in
    #[arg(long, value_enum, default_value_t = otf::TextFormat::Json)]
    format: otf::TextFormat,

    /// With --format json: add beside each raw value that has one its readable form, as the
    /// text form shows it (decimal prices, ISO-8601 timestamps, dates), under the key
    /// "NAME.readable" (docs/json.md); the output is then not canonical JSON
    #[arg(long)]
    readable: bool,

    /// The input is a pcap or pcapng capture: decode UDP payloads and TCP streams (each with
    /// the framing), with each message's capture time
    #[arg(long)]
    pcap: bool,

    /// With --pcap: only flows to or from this port
    #[arg(long, value_name = "PORT", requires = "pcap")]
    port: Option<u16>,

    /// Only messages with this template id (repeatable)
    #[arg(long = "template", value_name = "ID")]
    templates: Vec<u16>,

    /// Stop after printing this many messages
    #[arg(long, value_name = "N")]
    limit: Option<u64>,

    /// Keep reading FILE as it grows, like `tail -f` (until interrupted)
    #[arg(long, short = 'f')]
    follow: bool,

    /// The largest message expected: a message whose header, block lengths, group counts or
    /// var data lengths (or whose framing header) declare more bytes is reported at once, at
    /// its offset, without waiting for the bytes; decoding then goes on as the framing allows
    /// (raw framing stops). A number of bytes, or with a suffix K, M or G (powers of 1024)
    #[arg(long, value_name = "SIZE", default_value = "1M", value_parser = parse_size)]
    max_message_size: u64,

    /// With --format arrow or parquet: the directory to write one file per message template
    /// in (created if missing)
    #[arg(long, short = 'o', value_name = "DIR")]
    output: Option<PathBuf>,

    /// The encoded messages; standard input when absent or "-"
    #[arg(value_name = "FILE")]
    input: Option<PathBuf>,
}

#[derive(Debug, Args)]
struct EncodeArgs {
    /// The schema to encode the messages with: SBE XML, or a .sbeir file ("-" for standard
    /// input, when the messages come from a file)
    #[arg(long, value_name = "SCHEMA")]
    schema: PathBuf,

    /// How to frame the encoded messages (as for decode; mdp3 writes one packet)
    #[arg(long, default_value = "raw", value_parser = parse_framing, value_name = "FRAMING")]
    framing: Framing,

    /// With --framing sofh: which Simple Open Framing Header to write (decode reads both)
    #[arg(long, value_enum, default_value_t = SofhFormArg::Standard, value_name = "FORM")]
    sofh_form: SofhFormArg,

    /// Where to write the encoded messages; standard output when absent
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,

    /// Canonical JSON messages, one per line (docs/json.md); standard input when absent or "-"
    #[arg(value_name = "FILE")]
    input: Option<PathBuf>,
}

/// The SOFH form `sable encode` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum SofhFormArg {
    /// The FIX standard's 6-byte header: 4-byte big-endian length counting the header, then
    /// the encoding type 0x5BE0 (little-endian SBE) or 0xEB50 (big-endian SBE)
    Standard,
    /// CME's 4-byte header (iLink 3): 2-byte little-endian length counting the header, then
    /// the encoding type 0xCAFE little-endian (messages of at most 65,531 bytes)
    Cme,
}

fn parse_framing(text: &str) -> Result<Framing, String> {
    text.parse()
}

/// A size in bytes: `1000`, `64K`, `128M`, `1G` (also `128MiB`, `128MB`; all powers of 1024).
fn parse_size(text: &str) -> Result<u64, String> {
    let digits = text.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let unit = text[digits.len()..].to_ascii_lowercase();
    let shift = match unit.trim_end_matches("ib").trim_end_matches('b') {
        "" => 0,
        "k" => 10,
        "m" => 20,
        "g" => 30,
        "t" => 40,
        _ => return Err(format!("unknown unit \"{unit}\": use K, M, G or T")),
    };
    let n: u64 = digits
        .trim()
        .parse()
        .map_err(|_| format!("\"{text}\" is not a size such as 1000, 64K or 128M"))?;
    match n.checked_mul(1 << shift) {
        Some(0) => Err("the size must be at least 1 byte".to_owned()),
        Some(bytes) => Ok(bytes),
        None => Err(format!("{text} is too large")),
    }
}

fn main() -> ExitCode {
    alloc::fit_to_address_space_limit();
    // On a usage error clap prints the usage and exits with status 2; for --help and --version,
    // with status 0.
    let cli = Cli::parse();
    let status = match &cli.command {
        Command::Ir(args) => run_ir(args, &cli),
        Command::Check(args) => run_check(args, &cli),
        Command::Generate(args) => run_generate(args, &cli),
        Command::Decode(args) => run_decode(args, &cli),
        Command::Encode(args) => run_encode(args, &cli),
        Command::Compat(args) => compat::run(args, &cli),
    };
    ExitCode::from(status)
}

impl Cli {
    /// How to load the schema: warnings about names in generated code only for the commands
    /// that generate or check code (`check`, `generate`).
    fn load_options(&self) -> input::LoadOptions {
        input::LoadOptions {
            max_bytes: self.max_schema_size,
            quiet: self.quiet,
            generated_names: matches!(self.command, Command::Check(_) | Command::Generate(_)),
            lower: !matches!(self.command, Command::Check(_)),
        }
    }

    /// Loads `schema` and returns its IR when it is usable; everything else is reported.
    fn ir(&self, schema: &Path) -> Option<sable_ir::Ir> {
        input::load(schema, &self.load_options()).into_ir(self.warnings_as_errors)
    }

    /// A warning of sable's own, unless --quiet.
    fn warn(&self, message: &str) {
        if !self.quiet {
            input::report(&format!("sable: warning: {message}"));
        }
    }
}

fn run_generate(args: &GenerateArgs, cli: &Cli) -> u8 {
    let lang = args.lang.to_ascii_lowercase();
    if !matches!(
        lang.as_str(),
        "java" | "rust" | "cpp" | "c++" | "csharp" | "c#" | "go" | "python" | "typescript" | "ts"
    ) {
        input::report(&format!(
            "sable: not implemented yet for --lang {}; Sable generates java, rust, cpp, csharp, go, python and typescript",
            args.lang
        ));
        return EXIT_USAGE;
    }
    if args.output.exists() && !args.output.is_dir() {
        input::report(&format!(
            "sable: {}: not a directory (--output names the directory to write the generated \
             files into)",
            args.output.display()
        ));
        return EXIT_FAILURE;
    }
    let Some(ir) = cli.ir(&args.schema) else {
        return EXIT_FAILURE;
    };
    let files = match lang.as_str() {
        "rust" => generate_rust(args, cli, &ir),
        "java" => generate_java(args, &ir),
        "csharp" | "c#" => generate_csharp(args, &ir),
        "go" => generate_go(args, cli, &ir),
        "python" => generate_python(args, cli, &ir),
        "typescript" | "ts" => generate_typescript(args, &ir),
        _ => generate_cpp(args, cli, &ir),
    };
    for file in files {
        let path = args.output.join(&file.path);
        let written = path
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| std::fs::write(&path, file.text.as_bytes()));
        if let Err(e) = written {
            input::report(&format!("sable: cannot write {}: {e}", path.display()));
            return EXIT_FAILURE;
        }
    }
    0
}

/// `--package`, or for a schema that names no package of its own, one named after its file.
fn package_option(args: &GenerateArgs, ir: &sable_ir::Ir) -> Option<String> {
    args.package
        .clone()
        .or_else(|| sable_codegen::unnamed_package(ir, Some(&args.schema)))
}

/// `generate --lang java`: one file per class, in the package's directories.
fn generate_java(args: &GenerateArgs, ir: &sable_ir::Ir) -> Vec<sable_codegen::GeneratedFile> {
    let options = sable_codegen::java::Options {
        buffer: match args.java_buffer {
            JavaBuffer::Segment => sable_codegen::java::Buffer::Segment,
            JavaBuffer::Agrona => sable_codegen::java::Buffer::Agrona,
            JavaBuffer::AgronaUnsafe => sable_codegen::java::Buffer::AgronaUnsafe,
        },
        unknown_enum: args.java_unknown_enum,
        package: package_option(args, ir),
    };
    sable_codegen::java::generate(ir, &options)
}

/// `generate --lang cpp`: `sable/sbe.hpp` and one header per schema (docs/cpp.md), formatted
/// with clang-format when it is on PATH.
fn generate_cpp(
    args: &GenerateArgs,
    cli: &Cli,
    ir: &sable_ir::Ir,
) -> Vec<sable_codegen::GeneratedFile> {
    let options = sable_codegen::cpp::Options {
        namespace: package_option(args, ir),
    };
    let mut files = sable_codegen::cpp::generate(ir, &options);
    if let Err(why) = sable_codegen::cpp::clang_format(&mut files) {
        cli.warn(&format!("the C++ headers are not formatted: {why}"));
    }
    files
}

/// `generate --lang csharp`: `<Namespace>.cs` and the support file `Sable.Sbe.cs` (docs/csharp.md).
fn generate_csharp(args: &GenerateArgs, ir: &sable_ir::Ir) -> Vec<sable_codegen::GeneratedFile> {
    let options = sable_codegen::csharp::Options {
        package: package_option(args, ir),
    };
    sable_codegen::csharp::generate(ir, &options)
}

/// `generate --lang go`: the package's two files, `<package>.go` and `sbe.go`, in the output
/// directory (docs/go.md), formatted with gofmt when it is on PATH.
fn generate_go(
    args: &GenerateArgs,
    cli: &Cli,
    ir: &sable_ir::Ir,
) -> Vec<sable_codegen::GeneratedFile> {
    let options = sable_codegen::go::Options {
        package: package_option(args, ir),
    };
    let mut files = sable_codegen::go::generate(ir, &options);
    if let Err(why) = sable_codegen::go::gofmt(&mut files) {
        cli.warn(&format!("the Go files are not formatted: {why}"));
    }
    files
}

/// `generate --lang python`: one package, formatted by `ruff format` when it runs.
fn generate_python(
    args: &GenerateArgs,
    cli: &Cli,
    ir: &sable_ir::Ir,
) -> Vec<sable_codegen::GeneratedFile> {
    let options = sable_codegen::python::Options {
        package: package_option(args, ir),
    };
    let mut files = sable_codegen::python::generate(ir, &options);
    if let Err(why) = sable_codegen::python::ruff_format(&mut files) {
        cli.warn(&format!("the Python package is not formatted: {why}"));
    }
    files
}

/// `generate --lang typescript`: `<module>.ts` and the support module `sable.ts`
/// (docs/typescript.md).
fn generate_typescript(
    args: &GenerateArgs,
    ir: &sable_ir::Ir,
) -> Vec<sable_codegen::GeneratedFile> {
    let options = sable_codegen::typescript::Options {
        package: package_option(args, ir),
    };
    sable_codegen::typescript::generate(ir, &options)
}

/// `generate --lang rust`: one module file, `<module>.rs`, formatted by rustfmt when it runs.
fn generate_rust(
    args: &GenerateArgs,
    cli: &Cli,
    ir: &sable_ir::Ir,
) -> Vec<sable_codegen::GeneratedFile> {
    let (text, unformatted) = sable_codegen::rust::generate_formatted(ir);
    if let Some(why) = unformatted {
        cli.warn(&format!("the Rust module is not formatted: {why}"));
    }
    let name = package_option(args, ir).map_or_else(
        || sable_codegen::rust::module_name(ir),
        |p| sable_codegen::rust::module(&p),
    );
    vec![sable_codegen::GeneratedFile {
        path: PathBuf::from(format!("{name}.rs")),
        text,
    }]
}

fn run_ir(args: &IrArgs, cli: &Cli) -> u8 {
    let warnings_as_errors = cli.warnings_as_errors;
    let loaded = input::load(&args.schema, &cli.load_options());
    if let Loaded::Compiled {
        errors: 0,
        warnings: warnings @ 1..,
        ..
    } = loaded
    {
        if warnings_as_errors {
            input::report(&format!(
                "sable: {}: failed with {} (--warnings-as-errors)",
                input::display(&args.schema),
                plural(warnings, "warning")
            ));
        }
    }
    let Some(ir) = loaded.into_ir(warnings_as_errors) else {
        return EXIT_FAILURE;
    };
    if let Some(out) = &args.output {
        let bytes = sable_ir::sbeir::write(&ir);
        if let Err(e) = std::fs::write(out, bytes) {
            input::report(&format!("sable: cannot write {}: {e}", out.display()));
            return EXIT_FAILURE;
        }
    }
    if args.dump || args.output.is_none() {
        let text = sable_ir::dump(&ir);
        let mut stdout = io::stdout().lock();
        match stdout
            .write_all(text.as_bytes())
            .and_then(|()| stdout.flush())
        {
            Ok(()) => {}
            // The reader went away (`sable ir x.xml | head`): nothing more to say.
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {}
            Err(e) => {
                input::report(&format!("sable: cannot write to stdout: {e}"));
                return EXIT_FAILURE;
            }
        }
    }
    0
}

fn run_decode(args: &DecodeArgs, cli: &Cli) -> u8 {
    if let Some(status) = schema_and_messages_both_stdin(&args.schema, args.input.as_deref()) {
        return status;
    }
    if args.follow && args.input.as_deref().is_none_or(input::is_stdin) {
        input::report("sable: --follow reads a FILE as it grows: name the FILE");
        return EXIT_USAGE;
    }
    let Some(ir) = cli.ir(&args.schema) else {
        return EXIT_FAILURE;
    };
    if let Some(status) = unknown_templates(&ir, &args.templates) {
        return status;
    }
    let request = otf::DecodeRequest {
        ir: &ir,
        framing: args.framing,
        format: args.format,
        readable: args.readable,
        pcap: args.pcap,
        filter: Filter {
            port: args.port,
            ..Filter::default()
        },
        templates: &args.templates,
        limit: args.limit,
        input: args.input.as_deref(),
        follow: args.follow,
        max_message_size: usize::try_from(args.max_message_size).unwrap_or(usize::MAX),
        output: args.output.as_deref(),
    };
    finish(otf::decode(&request))
}

fn run_encode(args: &EncodeArgs, cli: &Cli) -> u8 {
    if let Some(status) = schema_and_messages_both_stdin(&args.schema, args.input.as_deref()) {
        return status;
    }
    let Some(ir) = cli.ir(&args.schema) else {
        return EXIT_FAILURE;
    };
    if args.sofh_form != SofhFormArg::Standard && args.framing != Framing::Sofh {
        input::report("sable: --sofh-form applies to --framing sofh only");
        return EXIT_USAGE;
    }
    let request = otf::EncodeRequest {
        ir: &ir,
        framing: args.framing,
        sofh_form: match args.sofh_form {
            SofhFormArg::Standard => SofhForm::Standard,
            SofhFormArg::Cme => SofhForm::Cme,
        },
        input: args.input.as_deref(),
        output: args.output.as_ref(),
    };
    finish(otf::encode(&request))
}

/// A usage error when the schema and the messages would both come from standard input.
fn schema_and_messages_both_stdin(schema: &Path, messages: Option<&Path>) -> Option<u8> {
    if input::is_stdin(schema) && messages.is_none_or(input::is_stdin) {
        input::report(
            "sable: --schema - and the messages cannot both come from standard input: \
             give the messages as a FILE",
        );
        return Some(EXIT_USAGE);
    }
    None
}

/// A usage error naming the schema's template ids when `--template` asks for one it lacks.
fn unknown_templates(ir: &sable_ir::Ir, templates: &[u16]) -> Option<u8> {
    let known: Vec<(i32, &str)> = ir
        .messages
        .iter()
        .filter_map(|tokens| tokens.first())
        .map(|t| (t.id, t.name.as_str()))
        .collect();
    let missing: Vec<String> = templates
        .iter()
        .filter(|id| !known.iter().any(|(k, _)| *k == i32::from(**id)))
        .map(u16::to_string)
        .collect();
    if missing.is_empty() {
        return None;
    }
    let ids: Vec<String> = known
        .iter()
        .map(|(id, name)| format!("{id} ({})", sable_otf::shown(name, 40)))
        .collect();
    input::report(&format!(
        "sable: --template {}: the schema has no message with that id; its template ids are {}",
        missing.join(", "),
        if ids.is_empty() {
            "none".to_owned()
        } else {
            ids.join(", ")
        }
    ));
    Some(EXIT_USAGE)
}

/// The exit status of a decode or encode run: 1 when it failed or met bad input.
fn finish(outcome: Result<otf::Outcome, String>) -> u8 {
    match outcome {
        Ok(outcome) if outcome.errors == 0 => 0,
        Ok(outcome) => {
            input::report(&format!(
                "sable: {} done, {} with problems (reported above)",
                plural(outcome.messages as usize, "message"),
                outcome.errors
            ));
            EXIT_FAILURE
        }
        Err(e) => {
            input::report(&format!("sable: {e}"));
            EXIT_FAILURE
        }
    }
}

fn run_check(args: &CheckArgs, cli: &Cli) -> u8 {
    let warnings_as_errors = cli.warnings_as_errors;
    let loaded = input::load(&args.schema, &cli.load_options());
    if let Loaded::Compiled {
        errors, warnings, ..
    } = loaded
    {
        let mut summary = format!(
            "{}, {}",
            plural(errors, "error"),
            plural(warnings, "warning")
        );
        if warnings_as_errors && warnings > 0 {
            summary.push_str(" (warnings are errors: --warnings-as-errors)");
        }
        input::report(&summary);
    }
    if loaded.passed(warnings_as_errors) {
        0
    } else {
        EXIT_FAILURE
    }
}

/// "1 error", "2 errors", "0 errors".
fn plural(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::{parse_size, Cli};

    #[test]
    fn clap_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn sizes_take_binary_suffixes() {
        assert_eq!(parse_size("1000"), Ok(1000));
        assert_eq!(parse_size("64K"), Ok(64 << 10));
        assert_eq!(parse_size("128M"), Ok(128 << 20));
        assert_eq!(parse_size("128MiB"), Ok(128 << 20));
        assert_eq!(parse_size("2g"), Ok(2 << 30));
        assert!(parse_size("0").is_err());
        assert!(parse_size("12X").is_err());
        assert!(parse_size("M").is_err());
        assert!(parse_size("99999999999T").is_err());
    }
}
