//! Searches given up with a stop flag (`Solver::set_stop`,
//! `Computer::set_stop`): they end soon, answer nothing, and leave only
//! what was proved in the table and in the computer's memory.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use connect_core::computer::{Computer, Game, Level};
use connect_core::solve::{Position, Size, Solver};

/// A computer that searches every position (no book), sharing `stop`.
fn searching_computer(stop: &Arc<AtomicBool>) -> Computer {
    let mut computer = Computer::new(Level::Perfect, 0);
    computer.set_book(None);
    computer.set_solver(Solver::with_table_bits(Size::STANDARD, 20));
    computer.set_stop(Some(Arc::clone(stop)));
    computer
}

#[test]
fn a_search_given_up_ends_soon_and_answers_nothing() {
    // The empty 7x6 board without a book takes minutes in a release build
    // and far longer in a debug one: the answer can only come from giving
    // up. The limit is loose, for a loaded machine; giving up takes
    // moments.
    let stop = Arc::new(AtomicBool::new(false));
    let mut computer = searching_computer(&stop);
    let (sent, answer) = mpsc::channel();
    thread::spawn(move || {
        let game = Game::from_moves(7, 6, 2, "").unwrap();
        let _ = sent.send(computer.choose(&game));
    });
    thread::sleep(Duration::from_millis(200));
    stop.store(true, Ordering::SeqCst);
    let got = answer.recv_timeout(Duration::from_secs(60));
    assert_eq!(got, Ok(None), "the search went on after the stop");
}

#[test]
fn a_computer_remembers_nothing_of_a_search_given_up() {
    // After 6146 the perfect move is column 5 (score 18), not the centre
    // (5): a search given up at once would pick the centre. The position
    // has few enough stones to be remembered once solved.
    let game = Game::from_moves(7, 6, 2, "6146").unwrap();
    let stop = Arc::new(AtomicBool::new(true));
    let mut computer = searching_computer(&stop);
    assert_eq!(computer.choose(&game), None);
    stop.store(false, Ordering::SeqCst);
    assert_eq!(computer.choose(&game), Some(4));
    let mut fresh = Computer::new(Level::Perfect, 0);
    fresh.set_book(None);
    assert_eq!(fresh.choose(&game), Some(4));
}

#[test]
fn searches_given_up_leave_only_the_truth_in_the_table() {
    // Each position's search is given up again and again, at different
    // depths of its tree (the stops' times do not matter to what is
    // checked), then searched to the end with the same table: the
    // published score.
    let size = Size::STANDARD;
    let path = format!("{}/tests/data/Test_L1_R2", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let mut solver = Solver::with_table_bits(size, 20);
    solver.set_stop(Some(Arc::clone(&stop)));
    for line in text.lines().take(3) {
        let (moves, score) = line.split_once(' ').unwrap();
        let p = Position::from_moves(size, moves).unwrap();
        for ms in [1, 3, 10, 30, 100] {
            stop.store(false, Ordering::SeqCst);
            thread::scope(|s| {
                let search = s.spawn(|| solver.solve(&p));
                thread::sleep(Duration::from_millis(ms));
                stop.store(true, Ordering::SeqCst);
                let _ = search.join();
            });
        }
        stop.store(false, Ordering::SeqCst);
        assert_eq!(solver.solve(&p), score.parse::<i32>().unwrap(), "{moves}");
        assert_eq!(
            solver.best_move(&p).map(|(_, s)| s),
            Some(score.parse::<i32>().unwrap()),
            "{moves}"
        );
    }
}
