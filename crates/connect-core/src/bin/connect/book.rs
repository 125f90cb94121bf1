//! `connect book`: a book of every position, or of the positions a perfect
//! player meets, to a depth; written whole, and level by level with --play.

use std::io::{self, Write};
use std::process::ExitCode;

use connect_core::solve::{Book, Size, Solver};
use frontend::Failure;

use crate::args::BookArgs;
use crate::{book_of, size, solver_with};

pub(crate) fn book(args: BookArgs) -> Result<ExitCode, Failure> {
    let size = size(args.board.width, args.board.height)?;
    // A book of every position is computed by search alone unless --book
    // is given; a play book starts from the built-in scores of the empty
    // board and the first moves on 7x6.
    let scores = if args.play || args.book.book.is_some() {
        book_of(size, &args.book, Book::standard_scores)?
    } else {
        None
    };
    // A path the book cannot be written to is said now, not after the work.
    if let Some(path) = &args.output {
        frontend::input::check_writable(path, BOOK_GIVE)?;
    }
    let mut solver = solver_with(size, &args.book.search, scores)?;
    let start = std::time::Instant::now();
    let progress = |p: &connect_core::solve::Progress| {
        frontend::note(&format!(
            "{} stone{}: {} of {} positions {} ({:.1} s)",
            p.stones,
            if p.stones == 1 { "" } else { "s" },
            p.done,
            p.total,
            if args.play { "played" } else { "scored" },
            start.elapsed().as_secs_f64()
        ));
    };
    let command = format!(
        "connect book{} --depth {}{}",
        if args.play { " --play" } else { "" },
        args.depth,
        if size == Size::STANDARD {
            String::new()
        } else {
            format!(" --width {} --height {}", size.width(), size.height())
        }
    );
    let text = |book: &Book, solver: &Solver| {
        let mut text = book.to_text();
        text.push_str(&format!(
            "# {} entries; made by `{command}` (connect {}) in {:.1} s, {} nodes searched\n",
            book.len(),
            env!("CARGO_PKG_VERSION"),
            start.elapsed().as_secs_f64(),
            solver.nodes()
        ));
        text
    };
    let write = |text: &str| -> Result<(), Failure> {
        match &args.output {
            None => {
                let mut out = io::stdout().lock();
                out.write_all(text.as_bytes())?;
                out.flush()?;
            }
            Some(path) => frontend::input::write_file(path, text.as_bytes(), BOOK_GIVE)?,
        }
        Ok(())
    };
    let book = if args.play {
        // With --output, each level's book is written as soon as it is
        // done: a long run stopped early leaves the deepest one finished.
        let mut saved: Result<(), Failure> = Ok(());
        let book = Book::compute_play(&mut solver, args.depth, progress, |book| {
            if args.output.is_some() && saved.is_ok() && book.depth() < args.depth {
                let mut t = book.to_text();
                t.push_str(&format!(
                    "# {} entries; the levels so far of `{command}` (connect {}) after {:.1} s\n",
                    book.len(),
                    env!("CARGO_PKG_VERSION"),
                    start.elapsed().as_secs_f64(),
                ));
                saved = write(&t);
            }
        })
        .map_err(|e| Failure::Usage(e.to_string()))?;
        saved?;
        book
    } else {
        Book::compute(&mut solver, args.depth, progress)
            .map_err(|e| Failure::Usage(e.to_string()))?
    };
    write(&text(&book, &solver))?;
    Ok(ExitCode::SUCCESS)
}

/// What to give when the book's --output cannot be written.
const BOOK_GIVE: &str = "--output FILE, a file in a folder you may write in";
