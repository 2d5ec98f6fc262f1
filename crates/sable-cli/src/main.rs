//! `sable`: the command-line front end. Compiles SBE XML message schemas (or reads `.sbeir`
//! files) to IR, decodes and encodes messages on the fly, and generates codecs (Java).

mod input;
mod otf;
mod progress;

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use sable_framing::capture::Filter;
use sable_framing::Framing;

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
    after_help = "Exit status: 0 success (warnings allowed), 1 schema errors (or warnings with \
                  --warnings-as-errors) or an unreadable input, 2 usage error or a command not \
                  implemented yet."
)]
struct Cli {
    /// Treat warnings as errors: any warning makes the command fail with exit status 1
    #[arg(long, global = true)]
    warnings_as_errors: bool,

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
    /// Generate codecs for a target language (Java, Rust, C++)
    ///
    /// Java: one source file per class under DIR, in the schema's package (its directories
    /// created), over java.lang.foreign.MemorySegment, or Agrona buffers with --java-buffer
    /// agrona (docs/java.md). Rust: one module file, DIR/<package>.rs (docs/rust.md). C++: one
    /// header-only file, DIR/<package>.hpp, and its support header DIR/sable/sbe.hpp
    /// (docs/cpp.md). Other languages are not implemented yet (exit status 2).
    Generate(GenerateArgs),
    /// Decode SBE messages to canonical JSON Lines or text, by the schema alone
    ///
    /// Reads a file (or standard input, or a pcap/pcapng capture with --pcap), splits it into
    /// messages by the framing, and prints each as one canonical JSON object per line
    /// (docs/json.md) or as text. A message that fails to decode is printed as far as it went,
    /// with an "error" key, and reported on stderr with its byte offset; decoding goes on with
    /// the next message where the framing allows. Exit status 1 when any input was bad.
    Decode(DecodeArgs),
    /// Encode canonical JSON Lines messages to SBE
    ///
    /// Each non-blank input line is one message in the canonical JSON form (docs/json.md). A
    /// line that does not encode is reported with its line number and left out; exit status 1
    /// when any line was bad.
    Encode(EncodeArgs),
}

#[derive(Debug, Args)]
struct IrArgs {
    /// The schema: an SBE XML message schema, or a .sbeir file
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
    /// The schema: an SBE XML message schema, or a .sbeir file
    #[arg(value_name = "SCHEMA")]
    schema: PathBuf,
}

#[derive(Debug, Args)]
struct GenerateArgs {
    /// The target language: java, rust or cpp
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

    /// The schema: an SBE XML message schema, or a .sbeir file
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
}

#[derive(Debug, Args)]
struct DecodeArgs {
    /// The schema the messages are encoded with: SBE XML, or a .sbeir file
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

    /// The encoded messages; standard input when absent or "-"
    #[arg(value_name = "FILE")]
    input: Option<PathBuf>,
}

#[derive(Debug, Args)]
struct EncodeArgs {
    /// The schema to encode the messages with: SBE XML, or a .sbeir file
    #[arg(long, value_name = "SCHEMA")]
    schema: PathBuf,

    /// How to frame the encoded messages (as for decode; mdp3 writes one packet)
    #[arg(long, default_value = "raw", value_parser = parse_framing, value_name = "FRAMING")]
    framing: Framing,

    /// Where to write the encoded messages; standard output when absent
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,

    /// Canonical JSON messages, one per line (docs/json.md); standard input when absent or "-"
    #[arg(value_name = "FILE")]
    input: Option<PathBuf>,
}

fn parse_framing(text: &str) -> Result<Framing, String> {
    text.parse()
}

fn main() -> ExitCode {
    // On a usage error clap prints the usage and exits with status 2; for --help and --version,
    // with status 0.
    let cli = Cli::parse();
    let status = match &cli.command {
        Command::Ir(args) => run_ir(args, cli.warnings_as_errors),
        Command::Check(args) => run_check(args, cli.warnings_as_errors),
        Command::Generate(args) => run_generate(args, cli.warnings_as_errors),
        Command::Decode(args) => run_decode(args, cli.warnings_as_errors),
        Command::Encode(args) => run_encode(args, cli.warnings_as_errors),
    };
    ExitCode::from(status)
}

fn run_generate(args: &GenerateArgs, warnings_as_errors: bool) -> u8 {
    if args.lang.eq_ignore_ascii_case("rust") {
        return run_generate_rust(args, warnings_as_errors);
    }
    if args.lang.eq_ignore_ascii_case("cpp") || args.lang.eq_ignore_ascii_case("c++") {
        return run_generate_cpp(args, warnings_as_errors);
    }
    if !args.lang.eq_ignore_ascii_case("java") {
        input::report(&format!(
            "sable generate: not implemented yet for --lang {}; Sable generates java, rust and cpp",
            args.lang
        ));
        return EXIT_USAGE;
    }
    let Some(ir) = input::load(&args.schema).into_ir(warnings_as_errors) else {
        return EXIT_FAILURE;
    };
    let options = sable_codegen::java::Options {
        buffer: match args.java_buffer {
            JavaBuffer::Segment => sable_codegen::java::Buffer::Segment,
            JavaBuffer::Agrona => sable_codegen::java::Buffer::Agrona,
        },
        unknown_enum: args.java_unknown_enum,
        package: package_option(args, &ir),
    };
    for file in sable_codegen::java::generate(&ir, &options) {
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

/// `generate --lang rust`: one module file, `<module>.rs`, formatted by rustfmt when it runs.
/// `generate --lang cpp`: `sable/sbe.hpp` and one header per schema (docs/cpp.md), formatted
/// with clang-format when it is on PATH.
fn run_generate_cpp(args: &GenerateArgs, warnings_as_errors: bool) -> u8 {
    let Some(ir) = input::load(&args.schema).into_ir(warnings_as_errors) else {
        return EXIT_FAILURE;
    };
    let options = sable_codegen::cpp::Options {
        namespace: package_option(args, &ir),
    };
    let mut files = sable_codegen::cpp::generate(&ir, &options);
    if let Err(why) = sable_codegen::cpp::clang_format(&mut files) {
        input::report(&format!(
            "sable: warning: the C++ headers are not formatted: {why}"
        ));
    }
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

fn run_generate_rust(args: &GenerateArgs, warnings_as_errors: bool) -> u8 {
    let Some(ir) = input::load(&args.schema).into_ir(warnings_as_errors) else {
        return EXIT_FAILURE;
    };
    let (text, unformatted) = sable_codegen::rust::generate_formatted(&ir);
    if let Some(why) = unformatted {
        input::report(&format!(
            "sable: warning: the Rust module is not formatted: {why}"
        ));
    }
    let name = package_option(args, &ir).map_or_else(
        || sable_codegen::rust::module_name(&ir),
        |p| sable_codegen::rust::module(&p),
    );
    let path = args.output.join(format!("{name}.rs"));
    let written =
        std::fs::create_dir_all(&args.output).and_then(|()| std::fs::write(&path, text.as_bytes()));
    if let Err(e) = written {
        input::report(&format!("sable: cannot write {}: {e}", path.display()));
        return EXIT_FAILURE;
    }
    0
}

fn run_ir(args: &IrArgs, warnings_as_errors: bool) -> u8 {
    let loaded = input::load(&args.schema);
    if let Loaded::Compiled {
        errors: 0,
        warnings: warnings @ 1..,
        ..
    } = loaded
    {
        if warnings_as_errors {
            input::report(&format!(
                "sable: {}: failed with {} (--warnings-as-errors)",
                args.schema.display(),
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

fn run_decode(args: &DecodeArgs, warnings_as_errors: bool) -> u8 {
    let Some(ir) = input::load(&args.schema).into_ir(warnings_as_errors) else {
        return EXIT_FAILURE;
    };
    let request = otf::DecodeRequest {
        ir: &ir,
        framing: args.framing,
        format: args.format,
        pcap: args.pcap,
        filter: Filter {
            port: args.port,
            ..Filter::default()
        },
        templates: &args.templates,
        limit: args.limit,
        input: args.input.as_deref(),
    };
    finish("decode", otf::decode(&request))
}

fn run_encode(args: &EncodeArgs, warnings_as_errors: bool) -> u8 {
    let Some(ir) = input::load(&args.schema).into_ir(warnings_as_errors) else {
        return EXIT_FAILURE;
    };
    let request = otf::EncodeRequest {
        ir: &ir,
        framing: args.framing,
        input: args.input.as_deref(),
        output: args.output.as_ref(),
    };
    finish("encode", otf::encode(&request))
}

/// The exit status of a decode or encode run: 1 when it failed or met bad input.
fn finish(command: &str, outcome: Result<otf::Outcome, String>) -> u8 {
    match outcome {
        Ok(outcome) if outcome.errors == 0 => 0,
        Ok(outcome) => {
            input::report(&format!(
                "sable {command}: {} done, {} with problems (reported above)",
                plural(outcome.messages as usize, "message"),
                outcome.errors
            ));
            EXIT_FAILURE
        }
        Err(e) => {
            input::report(&format!("sable {command}: {e}"));
            EXIT_FAILURE
        }
    }
}

fn run_check(args: &CheckArgs, warnings_as_errors: bool) -> u8 {
    let loaded = input::load(&args.schema);
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
    match loaded.into_ir(warnings_as_errors) {
        Some(_) => 0,
        None => EXIT_FAILURE,
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

    use super::Cli;

    #[test]
    fn clap_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}
