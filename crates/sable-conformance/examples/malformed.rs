//! Writes the malformed conformance vectors (`conformance/malformed/*.jsonl`) from the valid
//! ones, or with `--check` changes nothing and fails when a file differs.
//!
//!     cargo run --release -p sable-conformance --example malformed [-- --check]

use std::path::Path;
use std::process::ExitCode;

fn main() -> ExitCode {
    let check = match std::env::args().nth(1).as_deref() {
        None => false,
        Some("--check") => true,
        Some(other) => {
            eprintln!("malformed: unknown argument {other} (usage: malformed [--check])");
            return ExitCode::from(2);
        }
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let files = match sable_conformance::malformed::generate(&root) {
        Ok(files) => files,
        Err(e) => {
            eprintln!("malformed: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut stale = 0;
    for (path, text) in files {
        let shown = path
            .strip_prefix(&root)
            .unwrap_or(&path)
            .display()
            .to_string();
        let lines = text.lines().count();
        if std::fs::read_to_string(&path).ok().as_deref() == Some(text.as_str()) {
            println!("{shown}: {lines} vectors, up to date");
        } else if check {
            eprintln!("malformed: {shown} differs from what the generator writes");
            stale += 1;
        } else {
            let written = std::fs::create_dir_all(path.parent().unwrap_or(&root))
                .and_then(|()| std::fs::write(&path, &text));
            if let Err(e) = written {
                eprintln!("malformed: writing {shown}: {e}");
                return ExitCode::FAILURE;
            }
            println!("{shown}: {lines} vectors, written");
        }
    }
    if stale > 0 {
        eprintln!("malformed: run `cargo run --release -p sable-conformance --example malformed`");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
