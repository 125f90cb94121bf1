//! `mastermind`: the original menu-driven game, single games for scripts, statistics and scoring.
#![allow(clippy::print_stdout, clippy::print_stderr)] // reason: a command-line program talks on stdout/stderr

use std::cell::OnceCell;
use std::io::{self, BufRead, IsTerminal, Write};
use std::process::ExitCode;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use clap::{Parser, Subcommand, ValueEnum};
use mastermind_core::{Breaker, Code, DecisionTree, Game, Solver, Strategy};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Mastermind: guess a secret code, let the computer guess yours, or measure its strategies.
#[derive(Parser, Debug)]
#[command(name = "mastermind", version)]
struct Cli {
    /// Pegs per code (1-8).
    #[arg(long, global = true, default_value_t = 4, value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..=8))]
    pegs: u32,
    /// Number of colours, the letters a, b, ... (2-26).
    #[arg(long, global = true, default_value_t = 6, value_name = "K",
          value_parser = clap::value_parser!(u32).range(2..=26))]
    colors: u32,
    /// How the computer guesses: first-consistent (the original), knuth, most-parts, expected-size, entropy, optimal.
    #[arg(
        long,
        global = true,
        default_value = "first-consistent",
        value_name = "NAME"
    )]
    strategy: Strategy,
    /// With --strategy optimal: the least total within at most N guesses per secret.
    #[arg(long, global = true, value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..=60))]
    max_guesses: Option<u32>,
    /// Seed for the random secrets of the menu's games.
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// One game where you guess the computer's secret (`?` shows how many codes remain and a suggestion).
    Human(SecretArgs),
    /// One game where the computer guesses your secret; type each score as two digits, right then wrong.
    Computer,
    /// One game where the computer guesses its own secret.
    Both(SecretArgs),
    /// Play the strategy against every secret: total, average, worst case, histogram.
    Stats {
        /// Fix the first guess, e.g. aabbc.
        #[arg(long, value_name = "CODE")]
        first: Option<String>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Print the strategy's whole decision tree: the guess, then for each score what follows.
    Tree {
        /// Fix the first guess, e.g. aabbc.
        #[arg(long, value_name = "CODE")]
        first: Option<String>,
        /// Output format: indented text, or JSON (`guess`, `candidates`, `solves`, `next` by score).
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Print the score of GUESS against SECRET as two digits, right then wrong.
    Score {
        /// The secret code, e.g. dbcb.
        secret: String,
        /// The guess, e.g. abcd.
        guess: String,
    },
}

#[derive(clap::Args, Debug)]
struct SecretArgs {
    /// The secret code instead of a random one.
    #[arg(long, value_name = "CODE", conflicts_with = "seed")]
    secret: Option<String>,
    /// Seed for a reproducible random secret.
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Format {
    Text,
    Json,
}

/// Why the program stops early.
enum Stop {
    /// End of input at a prompt: quiet exit 0.
    Eof,
    /// Bad input on the command line: message, exit 2.
    Usage(String),
    /// Reading or writing failed.
    Io(io::Error),
}

impl From<io::Error> for Stop {
    fn from(e: io::Error) -> Self {
        Stop::Io(e)
    }
}

fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
        Err(Stop::Eof) => {
            let _ = io::stdout().flush();
            ExitCode::SUCCESS
        }
        Err(Stop::Usage(msg)) => {
            eprintln!("mastermind: {msg}");
            ExitCode::from(2)
        }
        Err(Stop::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(Stop::Io(e)) => {
            eprintln!("mastermind: {e}");
            ExitCode::from(1)
        }
    }
}

fn run() -> Result<ExitCode, Stop> {
    let cli = Cli::parse();
    let game = Game::new(cli.pegs, cli.colors).map_err(|e| Stop::Usage(e.to_string()))?;
    if cli.max_guesses.is_some() && cli.strategy != Strategy::Optimal {
        return Err(Stop::Usage(format!(
            "--max-guesses applies to --strategy optimal only, not {}",
            cli.strategy
        )));
    }
    let stdin = io::stdin();
    let mut ui = Ui {
        input: stdin.lock(),
        out: io::stdout().lock(),
    };
    // Long searches: statistics, trees, and the optimal strategy's plan before a game.
    let optimal = cli.strategy == Strategy::Optimal;
    let progress = Progress::start(match &cli.command {
        Some(Command::Stats { .. } | Command::Tree { .. }) => true,
        Some(Command::Both(_) | Command::Computer) => optimal,
        _ => false,
    });
    let player = Player {
        game,
        strategy: cli.strategy,
        max_guesses: cli.max_guesses,
        status: progress.status(),
        solver: OnceCell::new(),
    };
    let usage = |e: mastermind_core::Error| Stop::Usage(e.to_string());
    match cli.command {
        None => {
            let mut rng = make_rng(cli.seed);
            menu(&mut ui, &player, &mut rng)?;
        }
        Some(Command::Human(args)) => {
            let secret = pick_secret(game, &args)?;
            human(&mut ui, game, secret, cli.strategy)?;
        }
        Some(Command::Computer) => {
            player.plan().map_err(usage)?;
            progress.finish();
            computer(&mut ui, game, player.breaker().map_err(usage)?)?
        }
        Some(Command::Both(args)) => {
            let secret = pick_secret(game, &args)?;
            player.plan().map_err(usage)?;
            progress.finish();
            both(&mut ui, game, player.breaker().map_err(usage)?, secret)?;
        }
        Some(Command::Stats { first, format }) => {
            let first = first.map(|f| parse_arg(game, "--first", &f)).transpose()?;
            let solver = player.solver().clone().map_err(usage)?;
            let s = DecisionTree::try_build(&solver, first)
                .map_err(usage)?
                .stats(game, cli.strategy);
            progress.finish();
            match format {
                Format::Json => {
                    let text = serde_json::to_string(&s).map_err(io::Error::other)?;
                    writeln!(ui.out, "{text}")?;
                }
                Format::Text => {
                    writeln!(ui.out, "strategy: {}", s.strategy)?;
                    writeln!(ui.out, "pegs: {}", s.pegs)?;
                    writeln!(ui.out, "colors: {}", s.colors)?;
                    if let Some(f) = first {
                        writeln!(ui.out, "first: {}", game.format_code(f))?;
                    }
                    writeln!(ui.out, "codes: {}", s.codes)?;
                    writeln!(ui.out, "total: {}", s.total)?;
                    writeln!(ui.out, "average: {:.4}", s.average)?;
                    writeln!(ui.out, "worst: {}", s.worst)?;
                    writeln!(ui.out, "histogram: {}", s.histogram_text())?;
                }
            }
        }
        Some(Command::Tree { first, format }) => {
            let first = first.map(|f| parse_arg(game, "--first", &f)).transpose()?;
            let solver = player.solver().clone().map_err(usage)?;
            let t = DecisionTree::try_build(&solver, first).map_err(usage)?;
            progress.finish();
            match format {
                Format::Json => writeln!(ui.out, "{}", t.to_json(game))?,
                Format::Text => write!(ui.out, "{}", t.to_text(game))?,
            }
        }
        Some(Command::Score { secret, guess }) => {
            let secret = parse_arg(game, "SECRET", &secret)?;
            let guess = parse_arg(game, "GUESS", &guess)?;
            writeln!(ui.out, "{}", game.calc_score(secret, guess))?;
        }
    }
    ui.out.flush()?;
    Ok(ExitCode::SUCCESS)
}

fn parse_arg(game: Game, what: &str, text: &str) -> Result<Code, Stop> {
    game.parse_code(text)
        .map_err(|e| Stop::Usage(format!("bad {what}: {e}")))
}

fn make_rng(seed: Option<u64>) -> StdRng {
    match seed {
        Some(s) => StdRng::seed_from_u64(s),
        None => StdRng::from_rng(&mut rand::rng()),
    }
}

fn random_secret(game: Game, rng: &mut StdRng) -> Code {
    Code(rng.random_range(0..game.num_codes()))
}

fn pick_secret(game: Game, args: &SecretArgs) -> Result<Code, Stop> {
    match &args.secret {
        Some(s) => parse_arg(game, "--secret", s),
        None => Ok(random_secret(game, &mut make_rng(args.seed))),
    }
}

/// The computer player chosen on the command line, with its solver shared between games.
struct Player {
    game: Game,
    strategy: Strategy,
    max_guesses: Option<u32>,
    /// Where the optimal search reports how far it has got.
    status: Arc<Mutex<String>>,
    /// Made on first use: `score` and `human` never need it.
    solver: OnceCell<Result<Arc<Solver>, mastermind_core::Error>>,
}

impl Player {
    /// The shared solver (or why there is none).
    fn solver(&self) -> &Result<Arc<Solver>, mastermind_core::Error> {
        self.solver.get_or_init(|| {
            let mut s = Solver::new(self.game, self.strategy)?;
            if let Some(m) = self.max_guesses {
                s = s.with_max_guesses(m)?;
            }
            let status = Arc::clone(&self.status);
            s = s.with_progress(move |line| {
                if let Ok(mut st) = status.lock() {
                    *st = line.to_string();
                }
            });
            Ok(Arc::new(s))
        })
    }

    /// Plans the optimal strategy's whole game ahead (nothing for the others), so that a
    /// guess limit that cannot be kept is reported before the game starts.
    fn plan(&self) -> Result<(), mastermind_core::Error> {
        if self.strategy != Strategy::Optimal {
            return Ok(());
        }
        match self.solver() {
            Ok(s) => DecisionTree::try_build(s, None).map(|_| ()),
            Err(e) => Err(e.clone()),
        }
    }

    /// A fresh code breaker (depth-first `first-consistent` for games too big to list).
    fn breaker(&self) -> Result<Breaker, mastermind_core::Error> {
        match self.solver() {
            Ok(s) => Ok(Breaker::with_solver(Arc::clone(s))),
            Err(_) => Breaker::new(self.game, self.strategy),
        }
    }
}

/// Line-oriented terminal: prompts are written without a newline, and typed text is not echoed.
struct Ui<R: BufRead, W: Write> {
    input: R,
    out: W,
}

impl<R: BufRead, W: Write> Ui<R, W> {
    /// Shows `prompt`, reads one line and returns it trimmed; end of input stops the program.
    fn prompt(&mut self, prompt: &str) -> Result<String, Stop> {
        write!(self.out, "{prompt}")?;
        self.out.flush()?;
        let mut buf = Vec::new();
        if self.input.read_until(b'\n', &mut buf)? == 0 {
            return Err(Stop::Eof);
        }
        Ok(String::from_utf8_lossy(&buf).trim().to_string())
    }
}

const MENU: [(char, &str); 4] = [
    ('H', "Human player"),
    ('C', "Computer player"),
    ('B', "Both players are computers"),
    ('Q', "Quit"),
];

/// The original main loop: an empty line, the menu, the chosen game, again until `Q`.
fn menu<R: BufRead, W: Write>(
    ui: &mut Ui<R, W>,
    player: &Player,
    rng: &mut StdRng,
) -> Result<(), Stop> {
    let game = player.game;
    let title = "Mastermind";
    let len = MENU
        .iter()
        .map(|(_, t)| t.len() + 4)
        .chain([title.len()])
        .max()
        .unwrap_or(0);
    let rule = |l: char, c: char, r: char| format!("{l}{}{r}", c.to_string().repeat(len + 2));
    // Each game runs inside a fresh `main` in the original, whose closing empty line comes
    // after the menu that ended it returns.
    let mut depth = 1;
    loop {
        writeln!(ui.out)?;
        writeln!(ui.out, "{}", rule('/', '=', '\\'))?;
        writeln!(ui.out, "| {title:<len$} |")?;
        writeln!(ui.out, "{}", rule('|', '~', '|'))?;
        for (k, t) in MENU {
            writeln!(ui.out, "| [{k}] {t:<w$} |", w = len - 4)?;
        }
        writeln!(ui.out, "{}", rule('|', '~', '|'))?;
        let (key, text) = loop {
            let line = ui.prompt("|> ")?;
            let mut chars = line.chars();
            if let (Some(c), None) = (chars.next(), chars.next())
                && let Some(item) = MENU.iter().find(|(k, _)| k.eq_ignore_ascii_case(&c))
            {
                break *item;
            }
        };
        writeln!(ui.out, "| ==> {text:<w$} |", w = len - 4)?;
        writeln!(ui.out, "{}", rule('\\', '=', '/'))?;
        if key == 'Q' {
            break;
        }
        writeln!(ui.out)?;
        if key == 'H' {
            let secret = random_secret(game, rng);
            human(ui, game, secret, player.strategy)?;
        } else {
            match player.breaker() {
                Ok(b) if key == 'C' => computer(ui, game, b)?,
                Ok(b) => {
                    let secret = random_secret(game, rng);
                    both(ui, game, b, secret)?;
                }
                Err(e) => writeln!(ui.out, "{e}")?,
            }
        }
        depth += 1;
    }
    for _ in 0..depth {
        writeln!(ui.out)?;
    }
    Ok(())
}

/// The person guesses `secret`.
fn human<R: BufRead, W: Write>(
    ui: &mut Ui<R, W>,
    game: Game,
    secret: Code,
    strategy: Strategy,
) -> Result<(), Stop> {
    let mut history = Vec::new();
    let mut turn = 1;
    loop {
        let line = ui.prompt(&format!("Human turn {turn}: "))?;
        if line == "?" {
            let hint = hint(game, strategy, &history);
            writeln!(ui.out, "{hint}")?;
            continue;
        }
        if line.chars().count() != game.pegs() {
            continue;
        }
        let guess = match game.parse_code(&line) {
            Ok(g) => g,
            Err(e) => {
                writeln!(ui.out, "{e}")?;
                continue;
            }
        };
        let score = game.calc_score(secret, guess);
        writeln!(ui.out, "score: {}-{}", score.right, score.wrong)?;
        if score == game.win() {
            writeln!(ui.out, "Congratulation!")?;
            return Ok(());
        }
        history.push((guess, score));
        turn += 1;
    }
}

/// One line: how many codes still fit the scores so far, and the strategy's next guess.
fn hint(game: Game, strategy: Strategy, history: &[(Code, mastermind_core::Score)]) -> String {
    let mut b = match Breaker::new(game, strategy)
        .or_else(|_| Breaker::new(game, Strategy::FirstConsistent))
    {
        Ok(b) => b,
        Err(e) => return format!("no hint: {e}"),
    };
    for &(g, s) in history {
        b.feed(g, s);
    }
    const CAP: u64 = 100_000;
    let count = match b.remaining_up_to(CAP) {
        Some(1) => "1 code is".to_string(),
        Some(n) => format!("{n} codes are"),
        None => format!("more than {CAP} codes are"),
    };
    match b.next_guess() {
        Some(g) => format!("{count} still possible: try {}", game.format_code(g)),
        None => "no code is possible".to_string(),
    }
}

/// The computer guesses the person's secret; the person types the scores.
fn computer<R: BufRead, W: Write>(
    ui: &mut Ui<R, W>,
    game: Game,
    mut breaker: Breaker,
) -> Result<(), Stop> {
    let mut turn = 1;
    loop {
        let Some(guess) = breaker.next_guess() else {
            writeln!(ui.out, "You, cheater! You've made a mistake, haven't you?")?;
            return Ok(());
        };
        let prompt = format!("Computer turn {turn}: \"{}\" => ", game.format_code(guess));
        let score = loop {
            if let Some(s) = game.parse_score(&ui.prompt(&prompt)?) {
                break s;
            }
        };
        if score.right as usize == game.pegs() {
            writeln!(ui.out, "I'm the best!")?;
            return Ok(());
        }
        breaker.feed(guess, score);
        turn += 1;
    }
}

/// The computer guesses its own `secret`.
fn both<R: BufRead, W: Write>(
    ui: &mut Ui<R, W>,
    game: Game,
    mut breaker: Breaker,
    secret: Code,
) -> Result<(), Stop> {
    let mut turn = 1;
    loop {
        let Some(guess) = breaker.next_guess() else {
            writeln!(ui.out, "You, cheater! You've made a mistake, haven't you?")?;
            return Ok(());
        };
        let score = game.calc_score(secret, guess);
        writeln!(
            ui.out,
            "Computer turn {turn}: \"{}\" => {score}",
            game.format_code(guess)
        )?;
        if score == game.win() {
            writeln!(ui.out, "I'm the best!")?;
            return Ok(());
        }
        breaker.feed(guess, score);
        turn += 1;
    }
}

/// A line on standard error, refreshed every second once a run has taken more than a
/// second, when standard error is a terminal; silent otherwise.
struct Progress {
    status: Arc<Mutex<String>>,
    stop: Option<mpsc::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Progress {
    fn start(enabled: bool) -> Progress {
        let status = Arc::new(Mutex::new(String::new()));
        if !enabled || !io::stderr().is_terminal() {
            return Progress {
                status,
                stop: None,
                thread: None,
            };
        }
        let (tx, rx) = mpsc::channel::<()>();
        let shown = Arc::clone(&status);
        let thread = std::thread::spawn(move || {
            let start = Instant::now();
            let mut wrote = false;
            while let Err(RecvTimeoutError::Timeout) = rx.recv_timeout(Duration::from_secs(1)) {
                let line = shown.lock().map(|s| s.clone()).unwrap_or_default();
                let secs = start.elapsed().as_secs();
                eprint!("\r\x1b[Kworking, {secs} s {line}");
                wrote = true;
            }
            if wrote {
                eprint!("\r\x1b[K");
            }
        });
        Progress {
            status,
            stop: Some(tx),
            thread: Some(thread),
        }
    }

    /// Where the work reports its current step.
    fn status(&self) -> Arc<Mutex<String>> {
        Arc::clone(&self.status)
    }

    /// Stops the line and clears it.
    fn finish(&self) {
        if let Some(tx) = &self.stop {
            let _ = tx.send(());
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
