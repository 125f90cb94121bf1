//! The computer player: `perfect` never loses to `random`, and it plays
//! what the solver says.

use connect_core::Board;
use connect_core::computer::{Computer, Game, Level};
use connect_core::solve::{Position, Size, Solver};

/// Plays one game; returns the winner's number (0: a draw).
fn game(first: &mut Computer, second: &mut Computer, width: usize, height: usize) -> u8 {
    let mut g = Game::new(Board::empty(width, height).unwrap(), 2, &[]);
    while !g.is_over() {
        let who = if g.to_move().number() == 1 {
            &mut *first
        } else {
            &mut *second
        };
        let c = who.choose(&g).expect("a move while the game is on");
        g.play(c).expect("a column with room");
    }
    g.winner().map_or(0, |p| p.number())
}

#[test]
#[ignore = "release: 50 games on 7x6; the built-in book answers the opening, the later moves are searched (minutes)"]
fn perfect_first_never_loses_to_random_on_7x6() {
    let mut perfect = Computer::new(Level::Perfect, 0);
    for seed in 0..50 {
        let mut random = Computer::new(Level::Random, seed);
        let winner = game(&mut perfect, &mut random, 7, 6);
        // The first player wins 7x6 (Allis, Allen 1988): perfect play keeps the win.
        assert_eq!(winner, 1, "game {seed}");
    }
}

#[test]
fn perfect_never_loses_to_random_on_small_boards() {
    // 4x4 and 5x4 are draws with perfect play (the empty board's score, 0,
    // is checked against a brute force in small_boards.rs): the perfect
    // side never loses, whichever side it takes.
    for (w, h) in [(4, 4), (5, 4)] {
        let mut perfect = Computer::new(Level::Perfect, 0);
        for seed in 0..20 {
            let mut random = Computer::new(Level::Random, seed);
            assert_ne!(
                game(&mut perfect, &mut random, w, h),
                2,
                "{w}x{h} game {seed}"
            );
            let mut random = Computer::new(Level::Random, seed);
            assert_ne!(
                game(&mut random, &mut perfect, w, h),
                1,
                "{w}x{h} game {seed}"
            );
        }
    }
}

#[test]
fn perfect_keeps_the_published_score() {
    // End-Easy's first line scores -1: every move loses, the best only at the end.
    let size = Size::STANDARD;
    let moves = "2252576253462244111563365343671351441";
    let g = Game::from_moves(7, 6, 2, moves).unwrap();
    let c = Computer::new(Level::Perfect, 0).choose(&g).unwrap();
    let child = Position::from_moves(size, &format!("{moves}{}", c + 1)).unwrap();
    assert_eq!(-Solver::with_table_bits(size, 16).solve(&child), -1);
}

#[test]
fn medium_beats_random_mostly() {
    let mut wins = 0;
    for seed in 0..5 {
        let mut medium = Computer::new(Level::Medium, seed);
        let mut random = Computer::new(Level::Random, seed + 100);
        if game(&mut medium, &mut random, 7, 6) == 1 {
            wins += 1;
        }
    }
    assert!(wins >= 4, "medium won {wins} of 5 against random");
}
