#![allow(clippy::print_stdout)] // reason: this bench prints the distribution it measured
//! Whole 7x6 games of the `perfect` computer, as `connect play` runs it
//! (its book, a 64 MiB table, one search thread per core): against itself,
//! and against a seeded `random` player with the perfect side moving first
//! and second. Every perfect reply is timed, and, before each of the other
//! side's moves, the hint `h` would show (every column's score); the
//! distribution of each is printed (median, 90th percentile, worst).
//!
//! `cargo bench -p connect-core --bench self_play`; the environment sets
//! the sample: `SELF_PLAY_GAMES` games against random for each side (2),
//! `SELF_PLAY_HINTS=0` to time no hints, `SELF_PLAY_BOOK=depth1` to play
//! with the book of every position of at most one stone instead of the
//! built-in play book (the book before the play book was made),
//! `SELF_PLAY_THREADS` search threads (the machine's cores),
//! `SELF_PLAY_VERBOSE=1` to print each time as it is measured.

use std::time::{Duration, Instant};

use connect_core::Board;
use connect_core::computer::{Computer, Game, Level};
use connect_core::solve::{Book, Size, Solver};

fn env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

/// The times of one kind of answer, with the position each was for.
#[derive(Default)]
struct Times(Vec<(Duration, String)>);

impl Times {
    fn report(&self, what: &str) {
        let mut t = self.0.clone();
        if t.is_empty() {
            println!("{what:<28} none");
            return;
        }
        t.sort();
        let at = |q: f64| {
            t[((t.len() - 1) as f64 * q).round() as usize]
                .0
                .as_secs_f64()
        };
        let (worst, moves) = &t[t.len() - 1];
        println!(
            "{what:<28} n={:<4} median {:>7.3} s  p90 {:>7.3} s  worst {:>7.3} s (after {moves:?})",
            t.len(),
            at(0.5),
            at(0.9),
            worst.as_secs_f64(),
        );
    }
}

struct Setup {
    book: Option<Book>,
    threads: usize,
    hints: bool,
    verbose: bool,
}

impl Setup {
    fn perfect(&self) -> Computer {
        let mut c = Computer::new(Level::Perfect, 0);
        let mut solver = Solver::with_table_mb(Size::STANDARD, Solver::DEFAULT_TABLE_MB);
        solver.set_threads(self.threads);
        if let Some(book) = &self.book {
            solver.set_book(book.clone()).expect("a 7x6 book");
        }
        c.set_solver(solver);
        // The score book answers no move: the computer searches as before.
        c.set_book(self.book.clone().filter(Book::is_play));
        c
    }
}

fn moves_text(game: &Game) -> String {
    game.moves().iter().map(|c| (c + 1).to_string()).collect()
}

/// Plays a game; `perfect[i]` says whether player i + 1 is the perfect
/// computer `p`, else `other` plays. Times go to `replies` and `hints`.
fn play(
    p: &mut Computer,
    other: &mut Computer,
    perfect: [bool; 2],
    setup: &Setup,
    replies: &mut Times,
    hints: &mut Times,
) -> String {
    let mut game = Game::new(Board::empty(7, 6).expect("7x6"), 2, &[]);
    while !game.is_over() {
        let mine = perfect[usize::from(game.to_move().number() - 1)];
        let c = if mine {
            let start = Instant::now();
            let c = p.choose(&game).expect("a move");
            let took = start.elapsed();
            if setup.verbose {
                println!(
                    "  reply {:>7.3} s after {:?}",
                    took.as_secs_f64(),
                    moves_text(&game)
                );
            }
            replies.0.push((took, moves_text(&game)));
            c
        } else {
            if setup.hints {
                let start = Instant::now();
                std::hint::black_box(p.hint(&game));
                let took = start.elapsed();
                if setup.verbose {
                    println!(
                        "  hint  {:>7.3} s after {:?}",
                        took.as_secs_f64(),
                        moves_text(&game)
                    );
                }
                hints.0.push((took, moves_text(&game)));
            }
            other.choose(&game).expect("a move")
        };
        game.play(c).expect("a column with room");
    }
    let result = match game.winner() {
        Some(w) => format!("player {} wins", w.number()),
        None => "a draw".to_string(),
    };
    format!("{} ({result})", moves_text(&game))
}

fn main() {
    // `cargo test --benches` runs every bench binary with `--bench` absent:
    // a whole game is too long for a test run.
    if !std::env::args().any(|a| a == "--bench") {
        println!("self_play: run with `cargo bench --bench self_play`");
        return;
    }
    let games: u64 = env("SELF_PLAY_GAMES").map_or(2, |v| v.parse().expect("SELF_PLAY_GAMES"));
    let book = match env("SELF_PLAY_BOOK").as_deref() {
        None | Some("play") => Some(Book::standard()),
        Some("depth1") => Some(Book::standard_scores()),
        Some("none") => None,
        Some(other) => panic!("SELF_PLAY_BOOK={other}: play, depth1 or none"),
    };
    let threads = env("SELF_PLAY_THREADS").map_or_else(
        || std::thread::available_parallelism().map_or(1, usize::from),
        |v| v.parse().expect("SELF_PLAY_THREADS"),
    );
    let setup = Setup {
        book,
        threads,
        hints: env("SELF_PLAY_HINTS").as_deref() != Some("0"),
        verbose: env("SELF_PLAY_VERBOSE").as_deref() == Some("1"),
    };
    println!(
        "self_play: book {}, {threads} thread(s), {games} game(s) against random per side",
        env("SELF_PLAY_BOOK").unwrap_or_else(|| "play".into())
    );
    let (mut replies, mut hints) = (Times::default(), Times::default());
    // Perfect against itself: one computer, as both sides.
    let mut p = setup.perfect();
    let mut unused = Computer::new(Level::Random, 0);
    let line = play(
        &mut p,
        &mut unused,
        [true, true],
        &setup,
        &mut replies,
        &mut Times::default(),
    );
    println!("perfect vs perfect: {line}");
    for seed in 0..games {
        for side in [[true, false], [false, true]] {
            let mut p = setup.perfect();
            let mut random = Computer::new(Level::Random, seed);
            let line = play(&mut p, &mut random, side, &setup, &mut replies, &mut hints);
            let who = if side[0] { "first" } else { "second" };
            println!("perfect {who} vs random (seed {seed}): {line}");
        }
    }
    replies.report("perfect reply");
    if setup.hints {
        hints.report("hint (every column)");
    }
}
