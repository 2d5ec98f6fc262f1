//! Generates Rust codecs for SBE schemas from a build script, like `prost-build`: schema paths
//! in, one module file per schema out (in `OUT_DIR` by default), to `include!` in the crate.
//!
//! ```no_run
//! // build.rs
//! fn main() {
//!     sable_build::Config::new()
//!         .schema("schemas/car.xml")
//!         .compile()
//!         .unwrap_or_else(|e| panic!("{e}"));
//! }
//! ```
//!
//! ```text
//! // src/lib.rs: the module is named after the schema's package (`baseline.rs` here), or as
//! // given with `Config::schema_as`.
//! pub mod car {
//!     include!(concat!(env!("OUT_DIR"), "/baseline.rs"));
//! }
//! ```
//!
//! The generated code depends on nothing (not even this crate), has no `unsafe`, works in
//! `no_std` crates, and is formatted with `rustfmt` when the toolchain has it (set
//! `Config::rustfmt(false)` to skip). See Sable's docs/rust.md for the API it generates.

#![forbid(unsafe_code)]
// The crate's example is a whole build script, so its `fn main` is the point.
#![allow(clippy::needless_doctest_main)]

use std::fmt;
use std::path::{Path, PathBuf};

/// What went wrong while generating.
#[derive(Debug)]
pub enum Error {
    /// A schema has errors (or warnings, with `warnings_as_errors`): every diagnostic, one a
    /// line, as `FILE:LINE:COLUMN: error: ...`.
    Schema { path: PathBuf, diagnostics: String },
    /// No output directory: `OUT_DIR` is not set (not in a build script) and none was given.
    NoOutDir,
    /// Writing a module failed.
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Schema { path, diagnostics } => {
                write!(
                    f,
                    "schema {} does not compile:\n{diagnostics}",
                    path.display()
                )
            }
            Error::NoOutDir => f.write_str("OUT_DIR is not set: call Config::out_dir"),
            Error::Io { path, error } => write!(f, "cannot write {}: {error}", path.display()),
        }
    }
}

impl std::error::Error for Error {}

/// The generator's settings: schemas, output directory, formatting.
#[derive(Debug, Clone)]
pub struct Config {
    schemas: Vec<(PathBuf, Option<String>)>,
    out_dir: Option<PathBuf>,
    rustfmt: bool,
    warnings_as_errors: bool,
    rerun_if_changed: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config::new()
    }
}

impl Config {
    /// No schemas yet; output to `OUT_DIR`; rustfmt on; `cargo:rerun-if-changed` lines on.
    pub fn new() -> Config {
        Config {
            schemas: Vec::new(),
            out_dir: None,
            rustfmt: true,
            warnings_as_errors: false,
            rerun_if_changed: true,
        }
    }

    /// Adds a schema; its module file is named after the schema's package (or namespace) in
    /// snake case: `uk.co.real_logic.sbe.benchmarks` gives `uk_co_real_logic_sbe_benchmarks.rs`.
    pub fn schema(&mut self, path: impl AsRef<Path>) -> &mut Self {
        self.schemas.push((path.as_ref().to_path_buf(), None));
        self
    }

    /// Adds schemas, as [`Config::schema`].
    pub fn schemas<P: AsRef<Path>>(&mut self, paths: impl IntoIterator<Item = P>) -> &mut Self {
        for p in paths {
            self.schema(p);
        }
        self
    }

    /// Adds a schema whose module file is `<module>.rs`.
    pub fn schema_as(&mut self, path: impl AsRef<Path>, module: &str) -> &mut Self {
        self.schemas
            .push((path.as_ref().to_path_buf(), Some(module.to_owned())));
        self
    }

    /// Writes the modules to `dir` instead of `OUT_DIR` (e.g. `src/` for checked-in code).
    pub fn out_dir(&mut self, dir: impl AsRef<Path>) -> &mut Self {
        self.out_dir = Some(dir.as_ref().to_path_buf());
        self
    }

    /// Whether to format the modules with `rustfmt` (on by default; skipped quietly when
    /// `rustfmt` cannot be run).
    pub fn rustfmt(&mut self, on: bool) -> &mut Self {
        self.rustfmt = on;
        self
    }

    /// Whether schema warnings fail the build.
    pub fn warnings_as_errors(&mut self, on: bool) -> &mut Self {
        self.warnings_as_errors = on;
        self
    }

    /// Whether to print `cargo:rerun-if-changed` for each schema (on by default).
    pub fn rerun_if_changed(&mut self, on: bool) -> &mut Self {
        self.rerun_if_changed = on;
        self
    }

    /// Generates every schema's module; returns the files written.
    pub fn compile(&self) -> Result<Vec<PathBuf>, Error> {
        let out_dir = match &self.out_dir {
            Some(d) => d.clone(),
            None => std::env::var_os("OUT_DIR")
                .map(PathBuf::from)
                .ok_or(Error::NoOutDir)?,
        };
        std::fs::create_dir_all(&out_dir).map_err(|error| Error::Io {
            path: out_dir.clone(),
            error,
        })?;
        let mut written = Vec::new();
        for (path, module) in &self.schemas {
            if self.rerun_if_changed {
                println!("cargo:rerun-if-changed={}", path.display());
            }
            let compiled = sable_schema::compile_file(path);
            let failed = compiled.has_errors()
                || (self.warnings_as_errors && !compiled.diagnostics.is_empty());
            let ir = match compiled.ir {
                Some(ir) if !failed => ir,
                _ => {
                    let diagnostics = compiled
                        .diagnostics
                        .iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join("\n");
                    return Err(Error::Schema {
                        path: path.clone(),
                        diagnostics,
                    });
                }
            };
            let name = match module {
                Some(m) => m.clone(),
                None => match sable_codegen::unnamed_package(&ir, Some(path)) {
                    Some(p) => sable_codegen::rust::module(&p),
                    None => sable_codegen::rust::module_name(&ir),
                },
            };
            let mut text = sable_codegen::rust::generate(&ir);
            if self.rustfmt {
                if let Ok(formatted) = sable_codegen::rust::rustfmt(&text) {
                    text = formatted;
                }
            }
            let file = out_dir.join(format!("{name}.rs"));
            std::fs::write(&file, text).map_err(|error| Error::Io {
                path: file.clone(),
                error,
            })?;
            written.push(file);
        }
        Ok(written)
    }
}

/// Generates the modules of `schemas` into `OUT_DIR` with the default settings.
pub fn compile_schemas<P: AsRef<Path>>(schemas: &[P]) -> Result<Vec<PathBuf>, Error> {
    Config::new().schemas(schemas).compile()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("sable-build-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    fn example() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/car.xml")
    }

    #[test]
    fn writes_one_module_per_schema_named_by_package_or_as_given() {
        let dir = scratch("names");
        let files = Config::new()
            .schema(example())
            .schema_as(example(), "car")
            .out_dir(&dir)
            .rerun_if_changed(false)
            .compile()
            .unwrap();
        let names: Vec<String> = files
            .iter()
            .map(|f| f.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["baseline.rs", "car.rs"]);
        let text = std::fs::read_to_string(&files[1]).unwrap();
        assert!(text.contains("pub struct CarDecoder<'a>"));
        assert!(text.contains("pub fn decode_any(buf: &[u8])"));
        assert!(!text.contains("unsafe"));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_schema_without_a_package_is_named_after_its_file() {
        let dir = scratch("unnamed");
        std::fs::create_dir_all(&dir).unwrap();
        let schema = dir.join("quotes.xml");
        let text = std::fs::read_to_string(example()).unwrap();
        let unnamed = text.replace(" package=\"baseline\"", "");
        assert_ne!(unnamed, text, "the example names its package");
        std::fs::write(&schema, unnamed).unwrap();
        let files = Config::new()
            .schema(&schema)
            .out_dir(dir.join("out"))
            .rerun_if_changed(false)
            .compile()
            .unwrap();
        assert_eq!(files, [dir.join("out/quotes.rs")]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn reports_schema_errors_with_their_location() {
        let dir = scratch("errors");
        let bad = dir.join("bad.xml");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(&bad, "<messageSchema package=\"x\"><types/></messageSchema").unwrap();
        let err = Config::new()
            .schema(&bad)
            .out_dir(&dir)
            .rerun_if_changed(false)
            .compile()
            .unwrap_err();
        let text = err.to_string();
        assert!(text.contains("bad.xml"), "{text}");
        assert!(matches!(err, Error::Schema { .. }));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn needs_an_output_directory_outside_build_scripts() {
        if std::env::var_os("OUT_DIR").is_none() {
            let err = Config::new().schema(example()).compile().unwrap_err();
            assert!(matches!(err, Error::NoOutDir));
        }
    }
}
