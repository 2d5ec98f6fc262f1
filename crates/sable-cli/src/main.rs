//! `sable`: the command-line front end. Compiles SBE XML message schemas (or reads `.sbeir`
//! files) to IR; codec generation and the on-the-fly decoder and encoder are still to come.

mod input;

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};

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
                  Compiles SBE XML message schemas to IR (a text dump or a .sbeir file). \
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
    /// Generate codecs for a target language (not implemented yet)
    Generate(GenerateArgs),
    /// Decode SBE-encoded messages to text (not implemented yet)
    Decode(DecodeArgs),
    /// Encode messages from text to SBE (not implemented yet)
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
    /// The target language
    #[arg(long, value_name = "LANG")]
    lang: String,

    /// The directory to write the generated code to
    #[arg(short, long, value_name = "DIR")]
    output: PathBuf,

    /// The schema: an SBE XML message schema, or a .sbeir file
    #[arg(value_name = "SCHEMA")]
    schema: PathBuf,
}

#[derive(Debug, Args)]
struct DecodeArgs {
    /// The schema the messages are encoded with: SBE XML, or a .sbeir file
    #[arg(long, value_name = "SCHEMA")]
    schema: PathBuf,

    /// How the messages are framed in the input
    #[arg(long, value_enum, default_value_t = Framing::Raw)]
    framing: Framing,

    /// The text format to print the messages in
    #[arg(long, value_enum, default_value_t = TextFormat::Json)]
    format: TextFormat,

    /// The encoded messages; stdin when absent or "-"
    #[arg(value_name = "FILE")]
    input: Option<PathBuf>,
}

#[derive(Debug, Args)]
struct EncodeArgs {
    /// The schema to encode the messages with: SBE XML, or a .sbeir file
    #[arg(long, value_name = "SCHEMA")]
    schema: PathBuf,

    /// How to frame the encoded messages
    #[arg(long, value_enum, default_value_t = Framing::Raw)]
    framing: Framing,

    /// The text format the messages are written in
    #[arg(long, value_enum, default_value_t = TextFormat::Json)]
    format: TextFormat,

    /// Where to write the encoded messages; stdout when absent
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,

    /// The messages as text; stdin when absent or "-"
    #[arg(value_name = "FILE")]
    input: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Framing {
    /// Messages back to back, each starting with its message header
    Raw,
    /// Each message preceded by a Simple Open Framing Header
    Sofh,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum TextFormat {
    /// One JSON object per message, one per line
    Json,
    /// Indented field = value lines
    Text,
}

fn main() -> ExitCode {
    // On a usage error clap prints the usage and exits with status 2; for --help and --version,
    // with status 0.
    let cli = Cli::parse();
    let status = match &cli.command {
        Command::Ir(args) => run_ir(args, cli.warnings_as_errors),
        Command::Check(args) => run_check(args, cli.warnings_as_errors),
        Command::Generate(_) => not_implemented("generate"),
        Command::Decode(_) => not_implemented("decode"),
        Command::Encode(_) => not_implemented("encode"),
    };
    ExitCode::from(status)
}

fn not_implemented(command: &str) -> u8 {
    input::report(&format!(
        "sable {command}: not implemented yet; `sable ir` and `sable check` are what Sable does today"
    ));
    EXIT_USAGE
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
