//! `cnf-grader similarity`: copying across a class, as evidence for a person.

use crate::cli::Error;
use std::path::Path;
use std::process::ExitCode;

use crate::cli::args::{SimilarityArgs, SimilarityFormat};
use crate::cli::output::{emit, no_such_path, report_date};
use cnf_grader::escape;
use cnf_grader::model::similarity::{Options, Provenance};
use cnf_grader::output::{check_output_dir, check_output_file, check_outside_graded};
use cnf_grader::report;
use cnf_grader::similarity;
use cnf_grader::similarity::Selection;
use cnf_grader::submission::source::ReadLimits;
use cnf_grader::write::bless::write_atomically;

/// Compares the class and writes the report; exit code 0 whatever it finds.
pub(crate) fn similarity_command(args: SimilarityArgs) -> Result<ExitCode, Error> {
    if !args.class.exists() {
        return Err(
            no_such_path(&args.class, "the class folder (one sub-folder per student)").into(),
        );
    }
    if !args.class.is_dir() {
        return Err(format!(
            "{}: not a folder (expected the class folder, one sub-folder per student)",
            escape::path(&args.class)
        )
        .into());
    }
    match (&args.output, args.format) {
        (None, SimilarityFormat::Html) => {
            return Err(
                "--format html writes a folder of pages: give it with --output DIR"
                    .to_owned()
                    .into(),
            );
        }
        (Some(dir), SimilarityFormat::Html) => {
            check_outside_graded("--output", dir, &args.class, "the class folder")?;
            check_output_dir("--output", dir)?;
        }
        (Some(file), _) => {
            check_outside_graded("--output", file, &args.class, "the class folder")?;
            check_output_file("--output", file)?;
        }
        (None, _) => {}
    }
    let limits = ReadLimits {
        max_file: args.max_source as u64,
        ..ReadLimits::default()
    };
    let mut parts: Vec<u8> = args.part.iter().map(|f| f.part()).collect();
    parts.sort_unstable();
    parts.dedup();
    let selection = if parts.is_empty() {
        Selection::default()
    } else {
        Selection {
            parts,
            helpers: false,
        }
    };
    let peg = args.assignment == cnf_grader::assignment::Assignment::PegReversal;
    if peg && !args.part.is_empty() {
        return Err(
            "--part names Connect Four's parts; a Peg Reversal student has one file, \
                    compared whole"
                .to_owned()
                .into(),
        );
    }
    let mut base = similarity::read_base(&args.base, &limits).map_err(|e| format!("--base {e}"))?;
    if peg {
        base.insert(0, similarity::peg_base());
    }
    let class = if peg {
        similarity::read_peg_class(&args.class, &limits)
    } else {
        similarity::read_class(&args.class, &selection, &limits)
    }
    .map_err(|e| e.to_string())?;
    for refused in &class.refused {
        frontend::warn(&format!("{}: {refused}", escape::path(&args.class)));
    }
    if class.students.is_empty() {
        return Err(format!(
            "{}: no sub-folders, so no students to compare",
            escape::path(&args.class)
        )
        .into());
    }
    for student in &class.students {
        for note in &student.notes {
            frontend::warn(&format!(
                "{}: {}",
                escape::line(&student.name),
                escape::line(note)
            ));
        }
    }
    let options = Options {
        max_share: args.max_share.map(|n| n as usize),
        threshold: args.threshold,
        evidence: args.max_pages,
        ..Options::default()
    };
    let report = similarity::compare(&class.students, &base, &options);
    let provenance = Provenance::new(&report, &base, report_date(args.no_times)?);
    match args.format {
        SimilarityFormat::Human => emit(
            &report::similarity::human(&report, &provenance, args.max_pages),
            args.output.as_deref(),
            None,
        )?,
        SimilarityFormat::Json => emit(
            &report::similarity::json(&report, &provenance),
            args.output.as_deref(),
            None,
        )?,
        SimilarityFormat::Html => {
            let dir = args.output.as_deref().unwrap_or(Path::new("."));
            let title = format!("Similarity: {}", escape::path(&args.class));
            for (name, page) in
                report::similarity::html(&report, &provenance, &title, args.max_pages)
            {
                let path = dir.join(name);
                write_atomically(&path, page.as_bytes())
                    .map_err(|e| format!("cannot write {}: {e}", escape::path(&path)))?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
