//! `sable compat OLD NEW`: what changed between two schemas, judged for old and new readers and
//! for generated code (docs/compat.md).

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;
use sable_compat::report::{self, Side};
use sable_compat::Sense;
use sable_schema::Locations;

use crate::input::{self, Loaded};
use crate::{Cli, EXIT_FAILURE, EXIT_USAGE};

#[derive(Debug, Args)]
pub struct CompatArgs {
    /// The old schema (SBE XML or .sbeir); with --against, the schema to compare with its
    /// version at GIT_REF
    #[arg(value_name = "OLD")]
    old: PathBuf,

    /// The new schema (SBE XML or .sbeir)
    #[arg(value_name = "NEW", required_unless_present = "against")]
    new: Option<PathBuf>,

    /// Compare the schema given with its version at GIT_REF (a commit, branch or tag of the
    /// git repository it is in), as OLD
    #[arg(long, value_name = "GIT_REF", conflicts_with = "new")]
    against: Option<String>,

    /// The senses that must hold, comma separated: backward (a new reader decodes old
    /// messages), forward (an old reader decodes new messages), source (code written against
    /// the old generated API compiles against the new)
    #[arg(long, value_delimiter = ',', default_value = "backward,forward", value_parser = parse_sense)]
    require: Vec<Sense>,

    /// The form of the report
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,

    /// Prove the verdicts by decoding: encode random messages of each template with one
    /// schema and decode them with the other, both ways, and print a message that decodes
    /// wrongly where one does (text format)
    #[arg(long)]
    prove: bool,

    /// With --prove: messages tried per template and direction
    #[arg(long, default_value_t = 100, value_name = "N")]
    prove_count: usize,

    /// With --prove: the random seed
    #[arg(long, default_value_t = 1, value_name = "SEED")]
    seed: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    Text,
    Json,
}

fn parse_sense(text: &str) -> Result<Sense, String> {
    Sense::parse(text.trim())
        .ok_or_else(|| format!("\"{text}\" is not a sense: backward, forward or source"))
}

/// A schema loaded for comparison.
struct Compared {
    name: String,
    /// The path it was compiled as.
    file: PathBuf,
    ir: sable_ir::Ir,
    locations: Locations,
}

pub fn run(args: &CompatArgs, cli: &Cli) -> u8 {
    let options = cli.load_options();
    let sides = match (&args.new, &args.against) {
        (Some(new), _) => load(&args.old, None, cli).zip(load(new, None, cli)),
        (None, Some(reference)) => {
            let Some(bytes) = git_show(&args.old, reference, options.max_bytes) else {
                return EXIT_FAILURE;
            };
            let old = load(&args.old, Some((reference, bytes)), cli);
            old.zip(load(&args.old, None, cli))
        }
        (None, None) => return EXIT_USAGE,
    };
    let Some((old, new)) = sides else {
        return EXIT_FAILURE;
    };
    let findings = sable_compat::compare(&old.ir, &new.ir);
    let old_side = Side {
        name: &old.name,
        file: &old.file,
        locations: &old.locations,
    };
    let new_side = Side {
        name: &new.name,
        file: &new.file,
        locations: &new.locations,
    };
    let mut text = match args.format {
        Format::Text => report::text(&findings, &old_side, &new_side, &args.require),
        Format::Json => report::json(&findings, &old_side, &new_side, &args.require),
    };
    let mut contradicted = false;
    if args.prove {
        match sable_compat::prove::prove(&old.ir, &new.ir, args.prove_count, args.seed) {
            Ok(proofs) => {
                contradicted = proofs
                    .iter()
                    .any(|p| sable_compat::contradicts(&findings, p));
                if args.format == Format::Text {
                    text.push_str(&report::proofs_text(&findings, &proofs));
                }
            }
            Err(e) => {
                input::report(&format!("sable: cannot prove by decoding: {e}"));
                return EXIT_FAILURE;
            }
        }
    }
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        Err(e) => {
            input::report(&format!("sable: cannot write to stdout: {e}"));
            return EXIT_FAILURE;
        }
    }
    if report::broken(&findings, &args.require).is_empty() && !contradicted {
        0
    } else {
        EXIT_FAILURE
    }
}

/// Loads a schema from its file, or from the bytes of its version at a git reference.
fn load(path: &Path, at_ref: Option<(&String, Vec<u8>)>, cli: &Cli) -> Option<Compared> {
    let options = cli.load_options();
    let (name, bytes) = match at_ref {
        Some((reference, bytes)) => (format!("{}@{reference}", input::display(path)), bytes),
        None => (input::display(path), input::read(path, &options)?),
    };
    let (loaded, locations) = input::from_bytes(path, &bytes, &options);
    let ir = match loaded {
        Loaded::Compiled { .. } => loaded.into_ir(cli.warnings_as_errors)?,
        Loaded::Unreadable => return None,
    };
    Some(Compared {
        name,
        file: path.to_path_buf(),
        ir,
        locations,
    })
}

/// The bytes of `path` at git reference `reference` (`git show REF:./FILE`, run in the file's
/// directory), at most `max_bytes` of them.
fn git_show(path: &Path, reference: &str, max_bytes: u64) -> Option<Vec<u8>> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
    let file = path.file_name()?.to_string_lossy().into_owned();
    let mut git = std::process::Command::new("git");
    if let Some(dir) = dir {
        git.arg("-C").arg(dir);
    }
    let spec = format!("{reference}:./{file}");
    let output = match git.args(["show", "--no-textconv", &spec]).output() {
        Ok(o) => o,
        Err(e) => {
            input::report(&format!("sable: cannot run git: {e}"));
            return None;
        }
    };
    if !output.status.success() {
        let why = String::from_utf8_lossy(&output.stderr);
        input::report(&format!("sable: git show {spec} failed: {}", why.trim()));
        return None;
    }
    if output.stdout.len() as u64 > max_bytes {
        input::report(&format!(
            "sable: {spec}: larger than the {} limit (--max-schema-size to raise it)",
            sable_schema::size(max_bytes)
        ));
        return None;
    }
    Some(output.stdout)
}
