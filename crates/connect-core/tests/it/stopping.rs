//! Searches given up with a stop flag (`Solver::set_stop`): they leave
//! only what was proved in the table.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::Duration;

use connect_core::solve::{Position, Size, Solver};

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
