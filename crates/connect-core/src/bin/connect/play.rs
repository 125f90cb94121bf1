//! `connect play`: the terminal game over connect-core's rules.
//!
//! The computer chooses its moves and hints on a thread of its own, keeping
//! its solver (and the solver's table) for the whole game. On a terminal a
//! second thread reads the lines typed, so that while the computer thinks
//! the game shows a spinner with the time spent, and `q` or Ctrl-D stop the
//! game at once (the search is abandoned with the process). Other lines
//! typed meanwhile are kept and carried out in order once it has answered;
//! a `q` typed behind them waits its turn too. Piped, the game reads a line
//! only when it prompts for one, as before, so a script's moves are all
//! answered; a search that takes over a second is announced once on
//! standard error.
//!
//! On a terminal, in a two-player game against the perfect computer, the
//! computer also thinks on the person's time (pondering): while the person
//! chooses a move, a third thread finds the computer's reply to each of
//! the person's possible moves, the centre first, so that its reply is
//! usually ready at once. That thread runs at the lowest scheduling
//! priority with its own solver. When the person moves, undoes a move or
//! asks for a hint, or the game ends, the pondering thread gives up what
//! it was doing, the search under way included, within moments (the
//! solver's stop flag: a search given up answers nothing, and its table
//! and the computer keep only what was proved); the reply is taken from
//! it if it is ready, and otherwise searched at once as before. A line
//! that leaves the position as it was (a refused move, a save) lets the
//! pondering go on; quitting gives it up with the game.

use std::cell::RefCell;
use std::collections::HashMap;
use std::collections::VecDeque;
use std::io::{self, BufRead, IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use connect_core::cnf::{parse_cnf, render_cnf};
use connect_core::computer::{Computer, Game, Hint, Level, PlayError};
use connect_core::{Board, Cell, Player};
use frontend::Failure;
use owo_colors::OwoColorize;

use crate::args::PlayArgs;

/// The most rows and columns of a board `connect play` takes: every column
/// number fits two digits (written downwards, tens above units), and every
/// board fits a terminal a person can scroll.
pub(crate) const MAX_SIDE: usize = 99;

/// Boards of more cells than this get [`DEFAULT_THINK`] unless `--think` says otherwise.
const BIG_BOARD: usize = 100;
/// How long the computer thinks per move on a big board by default.
const DEFAULT_THINK: Duration = Duration::from_secs(2);

/// A `--think` limit as the header shows it: `500 ms`, `2 s`, `1 min`, `1 h`.
fn shown_time(limit: Duration) -> String {
    let ms = limit.as_millis();
    if ms.is_multiple_of(3_600_000) {
        format!("{} h", ms / 3_600_000)
    } else if ms.is_multiple_of(60_000) {
        format!("{} min", ms / 60_000)
    } else if ms.is_multiple_of(1000) {
        format!("{} s", ms / 1000)
    } else {
        format!("{ms} ms")
    }
}

/// The error for a board of `rows` x `cols` bigger than [`MAX_SIDE`] (`None`
/// when it fits); `what` names it (`--rows R --cols C`, or the file).
fn too_big(what: &str, rows: usize, cols: usize) -> Option<Failure> {
    (rows > MAX_SIDE || cols > MAX_SIDE).then(|| {
        Failure::Usage(format!(
            "{what}: a board of {} x {} is too big to play; \
             connect play takes 1 to {MAX_SIDE} rows and 1 to {MAX_SIDE} columns",
            counted(rows, "row"),
            counted(cols, "column"),
        ))
    })
}

/// `n` and the `word`, plural unless `n` is 1.
fn counted(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

/// The game as set up from the command line.
fn setup(args: &PlayArgs) -> Result<Game, Failure> {
    let (board, moves) = match &args.file {
        Some(path) => {
            let arg = path.to_string_lossy();
            if arg == "-" {
                frontend::waiting_for_stdin(
                    connect_core::cnf::GAME_EXAMPLE,
                    "give a .cnf file instead of -",
                );
            }
            let frontend::input::Input { name, text } =
                frontend::input::read_text(&arg, connect_core::cnf::GAME_FILE_WANTED)?;
            let game =
                parse_cnf(&text).map_err(|d| Failure::Usage(d.render(&name, &text).to_string()))?;
            if let Some(e) = too_big(&name, game.board.height(), game.board.width()) {
                return Err(e);
            }
            let moves: Vec<usize> = game.moves.iter().map(|&m| (m - 1) as usize).collect();
            (game.board, moves)
        }
        None => {
            let what = format!("--rows {} --cols {}", args.rows, args.cols);
            if let Some(e) = too_big(&what, args.rows, args.cols) {
                return Err(e);
            }
            let board = Board::empty(args.cols, args.rows).map_err(|e| {
                Failure::Usage(format!("--rows {} --cols {}: {e}", args.rows, args.cols))
            })?;
            (board, Vec::new())
        }
    };
    let highest = board.highest_player().map_or(0, Player::number);
    let players = match args.players {
        Some(n) if n < highest => {
            return Err(Failure::Usage(format!(
                "--players {n}: the board holds player {highest}'s pieces, so at least {highest} players play"
            )));
        }
        Some(n) => n,
        None => highest.max(2),
    };
    if let Some(&c) = args.computer.iter().find(|&&c| c > players) {
        return Err(Failure::Usage(format!(
            "--computer {c}: there are {players} players (1 to {players})"
        )));
    }
    Ok(Game::new(board, players, &moves))
}

/// Runs the game on standard input and output.
pub(crate) fn play(args: PlayArgs) -> Result<ExitCode, Failure> {
    let mut game = setup(&args)?;
    let seed = args.seed.unwrap_or_else(rand::random);
    let mut computer = Computer::new(args.level, seed);
    let color = args.color.for_stdout();
    let terminal = io::stdin().is_terminal();
    let spinner = io::stdout().is_terminal();
    let mut ponder = None;
    // The perfect player and the hint of a two-player game solve with the
    // book, table and threads asked for (by default the built-in book).
    if let Ok(size) = connect_core::solve::Size::new(game.board().width(), game.board().height())
        && game.players() == 2
    {
        let book = crate::book_of(size, &args.book, connect_core::solve::Book::standard)?;
        computer.set_book(book.clone());
        computer.set_solver(crate::solver_with(size, &args.book.search, book.clone())?);
        if terminal && matches!(args.level, Level::Perfect) && !args.computer.is_empty() {
            let mut pondering = Computer::new(Level::Perfect, seed);
            pondering.set_book(book.clone());
            let mut search = crate::solver_with(size, &args.book.search, book)?;
            search.set_threads(1);
            pondering.set_solver(search);
            ponder = Some(Ponder::spawn(pondering));
        }
    }
    let (events, received) = mpsc::channel();
    let thinker = Thinker::spawn(computer, events.clone());
    let mut input = Input::new(terminal, events, received);
    let mut out = io::stdout().lock();
    let is_computer = |p: Player| args.computer.contains(&p.number());

    let who: Vec<String> = (1..=game.players())
        .filter(|&n| args.computer.contains(&n))
        .map(|n| n.to_string())
        .collect();
    // The look-ahead's limit per move: by default 2 s on big boards.
    let cells = game.board().width() * game.board().height();
    let think = match args.think {
        Some(limit) => (!limit.is_zero()).then_some(limit),
        None => (cells > BIG_BOARD).then_some(DEFAULT_THINK),
    };
    let header = format!(
        "Connect Four: {} players on {} rows x {} columns{}{}.",
        game.players(),
        game.board().height(),
        game.board().width(),
        if who.is_empty() {
            String::new()
        } else {
            format!(
                "; the computer ({}) plays {}",
                args.level.name(),
                who.join(", ")
            )
        },
        match think {
            Some(limit) if !who.is_empty() => {
                format!("; the computer thinks up to {} a move", shown_time(limit))
            }
            _ => String::new(),
        }
    );
    writeln!(out, "{header}")?;
    // On a terminal the screen is redrawn for every board: what was said
    // since the person's last line (every computer move of the round, a
    // refusal, a hint) is kept and shown under each board that follows.
    let redraw = terminal && spinner;
    let said = RefCell::new(Vec::<String>::new());
    let say = |out: &mut io::StdoutLock, text: String| -> io::Result<()> {
        if redraw {
            said.borrow_mut().push(text);
            Ok(())
        } else {
            writeln!(out, "{text}")
        }
    };
    let mut line_no = 0usize;
    let mut bad = false;
    loop {
        // What is pondered is of no use once the position has changed.
        if let Some(ponder) = &mut ponder {
            ponder.keep_only(&game);
        }
        if redraw {
            writeln!(out, "\x1b[H\x1b[2J{header}")?;
        }
        write!(out, "\n{}", render(game.board(), color))?;
        for text in said.borrow().iter() {
            writeln!(out, "{text}")?;
        }
        if let Some(text) = outcome(&game) {
            writeln!(out, "{text}")?;
        }
        // The computer's turns.
        if !game.is_over() && is_computer(game.to_move()) {
            let p = game.to_move();
            let ready = ponder.as_ref().and_then(|ponder| ponder.take(&game));
            let c = match ready {
                Some(c) => c,
                None => {
                    thinker.ask(Job::Choose(game.clone(), think));
                    let what = format!("Player {} (computer) is thinking", token(p, color));
                    let Some(Answer::Move(c)) = input.wait(&mut out, &what, spinner)? else {
                        break;
                    };
                    c
                }
            };
            game.play(c).expect("the computer plays a column with room");
            say(
                &mut out,
                format!("Player {} (computer) plays {}.", token(p, color), c + 1),
            )?;
            continue;
        }
        if let Some(ponder) = &mut ponder
            && !game.is_over()
        {
            ponder.start(&game, &args.computer);
        }
        if game.is_over() {
            write!(out, "u undo, s FILE save, q quit\n> ")?;
        } else {
            write!(
                out,
                "Player {} to move: a column 1-{}, u undo, h hint, s FILE save, q quit\n> ",
                token(game.to_move(), color),
                game.board().width()
            )?;
        }
        out.flush()?;
        let Some(line) = input.line()? else {
            writeln!(out)?;
            break;
        };
        line_no += 1;
        // What was said before this line has been seen under its prompt.
        said.borrow_mut().clear();
        let cmd = line.trim();
        let refuse = |why: String, bad: &mut bool| {
            let shown = crate::escaped(cmd);
            if redraw {
                said.borrow_mut()
                    .push(format!("{}\"{shown}\": {why}", frontend::NOTE));
            } else if terminal {
                frontend::note(&format!("\"{shown}\": {why}"));
            } else {
                *bad = true;
                eprintln!(
                    "{}{}:{line_no}: \"{shown}\": {why}",
                    frontend::PREFIX,
                    frontend::STDIN
                );
            }
        };
        match cmd {
            "" => continue,
            "q" => {
                // Piped, the typed `q` is not echoed: end the prompt's line.
                if !terminal {
                    writeln!(out)?;
                }
                break;
            }
            "u" => {
                // Back to the last move a person made.
                let mut undone = false;
                while game.undo() {
                    undone = true;
                    if !is_computer(game.to_move()) {
                        break;
                    }
                }
                if !undone {
                    refuse("nothing to undo".into(), &mut bad);
                }
            }
            "h" => {
                // The hint's search needs the machine.
                if let Some(ponder) = &mut ponder {
                    ponder.stop();
                }
                thinker.ask(Job::Hint(game.clone(), think));
                match input.wait(&mut out, "Thinking of a hint", spinner)? {
                    Some(Answer::Hint(Some(text))) => say(&mut out, text)?,
                    Some(_) => refuse("the game is over".into(), &mut bad),
                    None => break,
                }
            }
            _ if cmd.starts_with("s ") || cmd == "s" => {
                let path = cmd[1..].trim();
                if path.is_empty() {
                    refuse("s needs a file name: s FILE".into(), &mut bad);
                    continue;
                }
                match save(&game, Path::new(path)) {
                    Ok(true) => say(&mut out, format!("Saved {}.", crate::escaped(path)))?,
                    Ok(false) => say(
                        &mut out,
                        format!(
                            "Saved {path}. Player {n} has no piece on the board yet, so the file \
                         does not say how many play: load it with --players {n} \
                         (connect play --players {n} {path}, part04 --players {n} {path}).",
                            path = crate::escaped(path),
                            n = game.players(),
                        ),
                    )?,
                    Err(e) => refuse(crate::escaped(&e.to_string()), &mut bad),
                }
            }
            _ => match cmd.parse::<usize>() {
                Ok(c) if c >= 1 => {
                    if let Err(e) = game.play(c - 1) {
                        let why = match e {
                            PlayError::Over => {
                                "the game is over; u undo, s FILE save, q quit".to_string()
                            }
                            PlayError::ColumnFull(_) => format!("{e}; type a column with room"),
                            e => e.to_string(),
                        };
                        refuse(why, &mut bad);
                    }
                }
                _ => refuse(
                    format!(
                        "not a move; type a column 1-{}, u, h, s FILE or q",
                        game.board().width()
                    ),
                    &mut bad,
                ),
            },
        }
    }
    out.flush()?;
    Ok(if bad {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    })
}

/// What the computer is asked to do.
enum Job {
    /// Choose the move of the player to move, thinking at most so long.
    Choose(Game, Option<Duration>),
    /// Give the player to move a hint, thinking at most so long.
    Hint(Game, Option<Duration>),
}

/// The computer's answer to a [`Job`].
enum Answer {
    /// The column it plays, 0-based.
    Move(usize),
    /// The hint's text; `None` when the game is over.
    Hint(Option<String>),
}

/// What the game waits for: a line typed (`None`: end of input), or the
/// computer's answer.
enum Event {
    Line(Option<String>),
    Answer(Answer),
}

/// The computer on a thread of its own, so that the game keeps reading
/// input while it searches. It keeps its solver, and so the solver's
/// table, from one move to the next.
struct Thinker {
    jobs: Sender<Job>,
}

impl Thinker {
    fn spawn(mut computer: Computer, events: Sender<Event>) -> Thinker {
        let (jobs, todo) = mpsc::channel::<Job>();
        thread::spawn(move || {
            for job in todo {
                let answer = match job {
                    Job::Choose(game, think) => {
                        let deadline = think.map(|limit| Instant::now() + limit);
                        Answer::Move(
                            computer
                                .choose_within(&game, deadline)
                                .expect("a game not over has a move"),
                        )
                    }
                    Job::Hint(game, think) => {
                        let deadline = think.map(|limit| Instant::now() + limit);
                        Answer::Hint(computer_hint(&mut computer, &game, deadline))
                    }
                };
                if events.send(Event::Answer(answer)).is_err() {
                    break;
                }
            }
        });
        Thinker { jobs }
    }

    fn ask(&self, job: Job) {
        // The thread ends only when the game drops `jobs` or a search panics;
        // a panic shows as the game's `wait` finding no answer.
        let _ = self.jobs.send(job);
    }
}

/// The computer thinking on the person's time: a thread of the lowest
/// priority, with its own computer, that finds the computer's reply to each
/// move the person may make, the centre first (module docs).
struct Ponder {
    rounds: Sender<Round>,
    /// The position whose replies are pondered (its moves), and the stop
    /// flag of that round.
    round: Option<(Vec<usize>, Arc<AtomicBool>)>,
    shared: Arc<Mutex<Pondered>>,
}

/// The replies to ponder: those to the person's moves in `game`, of the
/// players in `computers`; setting `stop` gives the round up, the search
/// under way included.
struct Round {
    game: Game,
    computers: Vec<u8>,
    stop: Arc<AtomicBool>,
}

/// What the pondering thread shows the game.
#[derive(Default)]
struct Pondered {
    /// The replies found, by the moves of the position they answer.
    ready: HashMap<Vec<usize>, usize>,
    /// The position whose reply is being searched (its moves), if any:
    /// the game needs only `ready`, this shows the thread at work.
    searching: Option<Vec<usize>>,
}

impl Ponder {
    fn spawn(mut computer: Computer) -> Ponder {
        let (rounds, todo) = mpsc::channel::<Round>();
        let shared = Arc::new(Mutex::new(Pondered::default()));
        let found = Arc::clone(&shared);
        thread::spawn(move || {
            // The lowest priority for this thread alone (a thread id is a
            // process id to setpriority); if refused, it still ponders.
            let _ = rustix::process::setpriority_process(Some(rustix::thread::gettid()), 19);
            while let Ok(mut round) = todo.recv() {
                // Only the latest position matters.
                while let Ok(newer) = todo.try_recv() {
                    round = newer;
                }
                computer.set_stop(Some(Arc::clone(&round.stop)));
                let width = round.game.board().width();
                let mut order: Vec<usize> = (0..width).collect();
                order.sort_by_key(|&c| ((2 * c as i64 - (width as i64 - 1)).abs(), c));
                for c in order {
                    if round.stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let mut next = round.game.clone();
                    if next.play(c).is_err()
                        || next.is_over()
                        || !round.computers.contains(&next.to_move().number())
                    {
                        continue;
                    }
                    let key = next.moves().to_vec();
                    match found.lock() {
                        Ok(mut f) if !f.ready.contains_key(&key) => {
                            f.searching = Some(key.clone());
                        }
                        _ => continue,
                    }
                    // `None` when given up: nothing to keep.
                    let reply = computer.choose(&next);
                    if let Ok(mut f) = found.lock() {
                        f.searching = None;
                        if let Some(reply) = reply {
                            f.ready.insert(key, reply);
                        }
                    }
                }
            }
        });
        Ponder {
            rounds,
            round: None,
            shared,
        }
    }

    /// Ponders the replies to the person's moves in `game`, going on with
    /// the round under way if it is for `game`.
    fn start(&mut self, game: &Game, computers: &[u8]) {
        if let Some((moves, stop)) = &self.round
            && moves == game.moves()
            && !stop.load(Ordering::SeqCst)
        {
            return;
        }
        self.stop();
        let stop = Arc::new(AtomicBool::new(false));
        self.round = Some((game.moves().to_vec(), Arc::clone(&stop)));
        let _ = self.rounds.send(Round {
            game: game.clone(),
            computers: computers.to_vec(),
            stop,
        });
    }

    /// Gives up the round under way unless it is for `game`: the person
    /// has moved or undone a move, or the game has ended.
    fn keep_only(&mut self, game: &Game) {
        if self
            .round
            .as_ref()
            .is_some_and(|(moves, _)| moves != game.moves() || game.is_over())
        {
            self.stop();
        }
    }

    /// Gives up the round under way, its search within moments.
    fn stop(&mut self) {
        if let Some((_, stop)) = self.round.take() {
            stop.store(true, Ordering::SeqCst);
        }
    }

    /// The reply found for `game`, if any.
    fn take(&self, game: &Game) -> Option<usize> {
        self.shared.lock().ok()?.ready.get(game.moves()).copied()
    }
}

impl Drop for Ponder {
    /// Quitting gives up the search under way with the game.
    fn drop(&mut self) {
        self.stop();
    }
}

/// The lines typed. On a terminal a thread reads them as they come, so
/// that `q` and end of input stop a search; lines typed during a search
/// wait their turn. Piped, the game reads a line only when it asks for one,
/// as a script expects.
struct Input {
    events: Receiver<Event>,
    pending: VecDeque<Option<String>>,
    piped: Option<io::StdinLock<'static>>,
}

/// The next line of `input` (`None` at its end), its bytes read as
/// UTF-8 with any invalid sequence shown as U+FFFD: a line that is not
/// text is a move or command the game does not know, answered as any
/// other, never the end of the game.
fn read_text_line(input: &mut impl BufRead) -> io::Result<Option<String>> {
    let mut bytes = Vec::new();
    if input.read_until(b'\n', &mut bytes)? == 0 {
        return Ok(None);
    }
    Ok(Some(String::from_utf8_lossy(&bytes).into_owned()))
}

/// How long an answer may take before the thinking note shows.
const QUICK: Duration = Duration::from_millis(50);
/// How long an answer may take before the note shows when piped.
const SLOW: Duration = Duration::from_secs(1);
/// How often the spinner turns.
const TICK: Duration = Duration::from_millis(100);

impl Input {
    fn new(terminal: bool, events: Sender<Event>, received: Receiver<Event>) -> Input {
        let piped = if terminal {
            thread::spawn(move || {
                let mut stdin = io::stdin().lock();
                loop {
                    let got = read_text_line(&mut stdin).ok().flatten();
                    let end = got.is_none();
                    if events.send(Event::Line(got)).is_err() || end {
                        break;
                    }
                }
            });
            None
        } else {
            drop(events);
            Some(io::stdin().lock())
        };
        Input {
            events: received,
            pending: VecDeque::new(),
            piped,
        }
    }

    /// The next line typed; `None` at the end of input.
    fn line(&mut self) -> io::Result<Option<String>> {
        if let Some(line) = self.pending.pop_front() {
            return Ok(line);
        }
        if let Some(stdin) = &mut self.piped {
            return read_text_line(stdin);
        }
        loop {
            match self.events.recv() {
                Ok(Event::Line(line)) => return Ok(line),
                // No search is under way when the game asks for a line.
                Ok(Event::Answer(_)) => {}
                Err(_) => return Ok(None),
            }
        }
    }

    /// Waits for the computer's answer, showing `what` with the time spent
    /// once it takes a while: on a terminal a spinner on one line, erased
    /// once the answer comes; otherwise a single plain line on standard
    /// error. `None` when the player quits meanwhile: `q` or the end of
    /// input typed with no earlier line waiting, or already waiting first.
    fn wait(
        &mut self,
        out: &mut impl Write,
        what: &str,
        spinner: bool,
    ) -> io::Result<Option<Answer>> {
        let start = Instant::now();
        let mut shown = false;
        let mut turn = 0usize;
        loop {
            let elapsed = start.elapsed();
            let timeout = if shown {
                TICK
            } else if spinner {
                QUICK.saturating_sub(elapsed)
            } else {
                SLOW.saturating_sub(elapsed)
            };
            match self.events.recv_timeout(timeout) {
                Ok(Event::Answer(answer)) => {
                    if shown && spinner {
                        write!(out, "\r\x1b[2K")?;
                        out.flush()?;
                    }
                    return Ok(Some(answer));
                }
                Ok(Event::Line(line)) => self.pending.push_back(line),
                Err(RecvTimeoutError::Timeout) => {
                    if spinner {
                        const FRAMES: [char; 4] = ['|', '/', '-', '\\'];
                        write!(
                            out,
                            "\r\x1b[2K{} {what}... {:.1} s (q quits)",
                            FRAMES[turn % FRAMES.len()],
                            start.elapsed().as_secs_f64()
                        )?;
                        out.flush()?;
                        turn += 1;
                    } else if !shown {
                        frontend::note(&format!("{what}..."));
                    }
                    shown = true;
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(io::Error::other("the computer stopped without an answer"));
                }
            }
            if shown && quits(self.pending.front()) {
                if spinner {
                    writeln!(out)?;
                }
                return Ok(None);
            }
        }
    }
}

/// Whether a line typed stops a search: `q`, or the end of input.
fn quits(line: Option<&Option<String>>) -> bool {
    match line {
        Some(None) => true,
        Some(Some(text)) => text.trim() == "q",
        None => false,
    }
}

fn outcome(game: &Game) -> Option<String> {
    if let Some(p) = game.winner() {
        Some(format!("Player {} wins.", p.token()))
    } else if game.is_over() {
        Some(if game.playable().is_empty() {
            "A draw: the board is full.".to_string()
        } else {
            "The board already has four in a row: the game is over.".to_string()
        })
    } else {
        None
    }
}

fn computer_hint(
    computer: &mut Computer,
    game: &Game,
    deadline: Option<Instant>,
) -> Option<String> {
    Some(match computer.hint_within(game, deadline)? {
        Hint::Scores(scores) => {
            let cells: Vec<String> = scores
                .iter()
                .enumerate()
                .map(|(c, s)| match s {
                    Some(0) => format!("{}:0", c + 1),
                    Some(s) => format!("{}:{s:+}", c + 1),
                    None => format!("{}:-", c + 1),
                })
                .collect();
            format!("Hint (>0 wins, 0 draws, <0 loses): {}", cells.join(" "))
        }
        Hint::Pick(c) => format!("Hint: column {}.", c + 1),
    })
}

/// Writes the game as a `.cnf` ([`Game::saved`]) through a temporary file
/// and a rename; true when the file's board tells the number of players.
fn save(game: &Game, path: &Path) -> Result<bool, frontend::input::FileError> {
    let saved = game.saved();
    let moves: Vec<i64> = saved.moves.iter().map(|&c| c as i64 + 1).collect();
    let text = render_cnf(&saved.board, &moves);
    frontend::input::write_file(
        path,
        text.as_bytes(),
        "s FILE, a file in a folder you may write in",
    )?;
    Ok(saved.shows_players)
}

/// A player's token, coloured when `color` is set.
fn token(p: Player, color: bool) -> String {
    let t = p.token().to_string();
    if !color {
        return t;
    }
    match p.number() % 6 {
        1 => t.red().bold().to_string(),
        2 => t.yellow().bold().to_string(),
        3 => t.blue().bold().to_string(),
        4 => t.green().bold().to_string(),
        5 => t.magenta().bold().to_string(),
        _ => t.cyan().bold().to_string(),
    }
}

/// The board with column numbers above, one character per cell; from 10
/// columns on, the numbers are written downwards, tens above units.
fn render(board: &Board, color: bool) -> String {
    let w = board.width();
    let mut s = String::new();
    if w >= 10 {
        let tens: Vec<String> = (1..=w)
            .map(|c| {
                if c < 10 {
                    " ".into()
                } else {
                    (c / 10).to_string()
                }
            })
            .collect();
        s.push_str(&tens.join(" "));
        s.push('\n');
    }
    let units: Vec<String> = (1..=w).map(|c| (c % 10).to_string()).collect();
    s.push_str(&units.join(" "));
    s.push('\n');
    for r in 0..board.height() {
        let row: Vec<String> = (0..w)
            .map(|c| match board.cell(r, c) {
                Cell::Empty => "-".to_string(),
                Cell::Piece(p) => token(p, color),
            })
            .collect();
        s.push_str(&row.join(" "));
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use connect_core::solve::{Size, Solver};

    /// A perfect computer that searches every position (no book).
    fn searching() -> Computer {
        let mut computer = Computer::new(Level::Perfect, 0);
        computer.set_book(None);
        computer.set_solver(Solver::with_table_bits(Size::STANDARD, 20));
        computer
    }

    /// Whether `done` holds within `limit` (a loose bound, for a loaded
    /// machine), asked every few milliseconds.
    fn within(limit: Duration, mut done: impl FnMut() -> bool) -> bool {
        let start = Instant::now();
        while start.elapsed() < limit {
            if done() {
                return true;
            }
            thread::sleep(Duration::from_millis(10));
        }
        done()
    }

    fn searching_now(ponder: &Ponder) -> Option<Vec<usize>> {
        ponder.shared.lock().unwrap().searching.clone()
    }

    #[test]
    fn pondering_gives_up_its_search_when_the_person_moves() {
        // Without a book, the replies to the first move take minutes in a
        // release build and far longer in a debug one: the search ends only
        // because it is given up, and answers nothing.
        let mut ponder = Ponder::spawn(searching());
        let game = Game::from_moves(7, 6, 2, "").unwrap();
        ponder.start(&game, &[2]);
        let limit = Duration::from_secs(60);
        assert!(within(limit, || searching_now(&ponder).is_some()));
        // The centre first.
        assert_eq!(searching_now(&ponder), Some(vec![3]));
        // The round goes on while the position is the same.
        let flag = |ponder: &Ponder| ponder.round.as_ref().map(|(_, stop)| Arc::clone(stop));
        let first = flag(&ponder).unwrap();
        ponder.start(&game, &[2]);
        ponder.keep_only(&game);
        assert!(flag(&ponder).is_some_and(|stop| Arc::ptr_eq(&stop, &first)));
        assert!(!first.load(Ordering::SeqCst));
        let mut moved = game.clone();
        moved.play(3).unwrap();
        ponder.keep_only(&moved);
        assert!(
            within(limit, || searching_now(&ponder).is_none()),
            "the search went on after the person moved"
        );
        assert_eq!(ponder.take(&moved), None);
        assert!(ponder.shared.lock().unwrap().ready.is_empty());
    }

    #[test]
    fn a_reply_pondered_is_the_computers_own_choice() {
        // A Middle-Easy position, player 1 (the person) to move: every
        // reply is searched in moments. The game plays a reply pondered
        // (`Ponder::take`) as it would have played its own.
        let game = Game::from_moves(7, 6, 2, "271713432331713132").unwrap();
        let ponder = {
            let mut ponder = Ponder::spawn(searching());
            ponder.start(&game, &[2]);
            ponder
        };
        let replies: Vec<Game> = game
            .playable()
            .into_iter()
            .map(|c| {
                let mut next = game.clone();
                next.play(c).unwrap();
                next
            })
            .filter(|next| !next.is_over())
            .collect();
        assert!(!replies.is_empty());
        assert!(
            within(Duration::from_secs(120), || replies
                .iter()
                .all(|next| ponder.take(next).is_some())),
            "not every reply was pondered"
        );
        let mut own = searching();
        for next in &replies {
            assert_eq!(ponder.take(next), own.choose(next), "{:?}", next.moves());
        }
    }
}
