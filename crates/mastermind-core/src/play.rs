//! The original program's text interface (spec §4 and §5): the menu and the three games,
//! over any line reader and writer, so a terminal, a pipe or a test drives them alike.
//!
//! The transcript is byte for byte the original's: prompts end without a line end, typed
//! text is not echoed, and a guess of the wrong length or an invalid score shows the same
//! prompt again. What this project adds:
//! - `?` at a human turn prints how many codes are still possible and a suggested guess;
//! - a guess of the right length with a letter that is not a colour is answered with what
//!   is wrong;
//! - `q` or `Q` at a game prompt leaves that game (for the menu, when it was started there);
//!   in a one-peg game of 17 or more colours, where `q` is a colour, only `Q` leaves;
//! - with notes enabled ([`Ui::with_notes`]; the `mastermind` binary enables them when
//!   standard input is a terminal), every silent re-prompt (a key not on the menu, a
//!   guess of the wrong length, an invalid score) is explained on the notes
//!   writer (standard error), never in the transcript; at end of input the notes writer
//!   ends the prompt's line, so a terminal's cursor does not stay after the prompt.
//!
//! Input is read as bytes, a line at a time: a line that is not UTF-8 is read with the
//! invalid bytes replaced, so it is one refused line, never an error; end of input at any
//! prompt ends play (the binary then exits 0).

use std::cell::OnceCell;
use std::io::{self, BufRead, Write};
use std::sync::Arc;

use crate::{Breaker, Code, DecisionTree, Error, Game, Score, Solver, Strategy};

/// How a game or the menu ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The game was played to its end, or the menu was quit with `Q`.
    Finished,
    /// The person typed `q` at a game prompt.
    Left,
    /// Input ended at a prompt.
    EndOfInput,
}

/// Line-oriented terminal: prompts are written without a line end and typed text is not echoed.
pub struct Ui<'a, R, W> {
    input: R,
    out: W,
    notes: Option<&'a mut dyn Write>,
}

impl<'a, R: BufRead, W: Write> Ui<'a, R, W> {
    /// A terminal reading lines from `input` and writing the transcript to `out`.
    pub fn new(input: R, out: W) -> Self {
        Ui {
            input,
            out,
            notes: None,
        }
    }

    /// Explains every rejected line on `notes` (one line each).
    pub fn with_notes(mut self, notes: &'a mut dyn Write) -> Self {
        self.notes = Some(notes);
        self
    }

    /// The transcript writer.
    pub fn out(&mut self) -> &mut W {
        &mut self.out
    }

    /// Shows `prompt`, reads one line and returns it trimmed; `None` at end of input.
    fn prompt(&mut self, prompt: &str) -> io::Result<Option<String>> {
        write!(self.out, "{prompt}")?;
        self.out.flush()?;
        let mut buf = Vec::new();
        if self.input.read_until(b'\n', &mut buf)? == 0 {
            // On a terminal, end the prompt's line on the notes writer, so
            // the shell's prompt starts afresh and the transcript is unchanged.
            self.note("")?;
            return Ok(None);
        }
        Ok(Some(String::from_utf8_lossy(&buf).trim().to_string()))
    }

    /// Writes `note` on the notes writer, if there is one.
    fn note(&mut self, note: &str) -> io::Result<()> {
        match &mut self.notes {
            Some(n) => {
                writeln!(n, "{note}")?;
                n.flush()
            }
            None => Ok(()),
        }
    }
}

/// Where a long search reports how far it has got.
type Report = Arc<dyn Fn(&str) + Send + Sync>;

/// The computer player chosen for a session: one strategy, with its solver made on first
/// use and shared by every game.
pub struct Player {
    game: Game,
    strategy: Strategy,
    max_guesses: Option<u32>,
    progress: Option<Report>,
    solver: OnceCell<Result<Arc<Solver>, Error>>,
}

impl Player {
    /// A player for `strategy` in `game`; `max_guesses` limits the optimal strategy.
    pub fn new(game: Game, strategy: Strategy, max_guesses: Option<u32>) -> Player {
        Player {
            game,
            strategy,
            max_guesses,
            progress: None,
            solver: OnceCell::new(),
        }
    }

    /// Has long searches report how far they have got to `f` (see [`Solver::with_progress`]).
    pub fn with_progress(mut self, f: impl Fn(&str) + Send + Sync + 'static) -> Player {
        self.progress = Some(Arc::new(f));
        self
    }

    /// The game.
    pub fn game(&self) -> Game {
        self.game
    }

    /// The strategy.
    pub fn strategy(&self) -> Strategy {
        self.strategy
    }

    /// The shared solver, or why there is none (e.g. a game too big for the strategy).
    pub fn solver(&self) -> Result<Arc<Solver>, Error> {
        self.solver
            .get_or_init(|| {
                let mut s = Solver::new(self.game, self.strategy)?;
                if let Some(m) = self.max_guesses {
                    s = s.with_max_guesses(m)?;
                }
                if let Some(p) = &self.progress {
                    let p = Arc::clone(p);
                    s = s.with_progress(move |line| p(line));
                }
                Ok(Arc::new(s))
            })
            .clone()
    }

    /// The strategy's whole decision tree (first guess `first` if given).
    pub fn tree(&self, first: Option<Code>) -> Result<DecisionTree, Error> {
        DecisionTree::try_build(&*self.solver()?, first)
    }

    /// Plans the optimal strategy's whole game ahead (nothing for the others), so that a
    /// guess limit that cannot be kept is reported before a game starts.
    pub fn plan(&self) -> Result<(), Error> {
        if self.strategy != Strategy::Optimal {
            return Ok(());
        }
        self.tree(None).map(|_| ())
    }

    /// A fresh code breaker (the depth-first `first-consistent` for games too big to list).
    pub fn breaker(&self) -> Result<Breaker, Error> {
        match self.solver() {
            Ok(s) => Ok(Breaker::with_solver(s)),
            Err(_) => Breaker::new(self.game, self.strategy),
        }
    }
}

/// The menu's items: key and text.
const MENU: [(char, &str); 4] = [
    ('H', "Human player"),
    ('C', "Computer player"),
    ('B', "Both players are computers"),
    ('Q', "Quit"),
];

/// The menu's title line.
const TITLE: &str = "Mastermind";

/// The original main loop (spec §5): an empty line, the menu, the chosen game, again until
/// `Q`. `secret` picks the secret of each human and both game.
pub fn menu<R: BufRead, W: Write>(
    ui: &mut Ui<'_, R, W>,
    player: &Player,
    secret: &mut dyn FnMut() -> Code,
) -> io::Result<Outcome> {
    let len = MENU
        .iter()
        .map(|(_, t)| t.len() + 4)
        .chain([TITLE.len()])
        .max()
        .unwrap_or(0);
    let rule = |l: char, c: char, r: char| format!("{l}{}{r}", c.to_string().repeat(len + 2));
    // Each game runs inside a fresh `main` in the original, whose closing empty line comes
    // after the menu that ended it returns.
    let mut depth = 1;
    loop {
        writeln!(ui.out)?;
        writeln!(ui.out, "{}", rule('/', '=', '\\'))?;
        writeln!(ui.out, "| {TITLE:<len$} |")?;
        writeln!(ui.out, "{}", rule('|', '~', '|'))?;
        for (k, t) in MENU {
            writeln!(ui.out, "| [{k}] {t:<w$} |", w = len - 4)?;
        }
        writeln!(ui.out, "{}", rule('|', '~', '|'))?;
        let (key, text) = loop {
            let Some(line) = ui.prompt("|> ")? else {
                return Ok(Outcome::EndOfInput);
            };
            let mut chars = line.chars();
            if let (Some(c), None) = (chars.next(), chars.next())
                && let Some(item) = MENU.iter().find(|(k, _)| k.eq_ignore_ascii_case(&c))
            {
                break *item;
            }
            // The original shows the prompt again; say why only on the notes.
            let keys = "type one letter, H, C, B or Q (either case)";
            ui.note(&if line.is_empty() {
                format!("no choice: {keys}")
            } else {
                format!("'{}' is not on the menu: {keys}", line.escape_debug())
            })?;
        };
        writeln!(ui.out, "| ==> {text:<w$} |", w = len - 4)?;
        writeln!(ui.out, "{}", rule('\\', '=', '/'))?;
        if key == 'Q' {
            break;
        }
        writeln!(ui.out)?;
        let outcome = if key == 'H' {
            human(ui, player, secret())?
        } else {
            match player.breaker() {
                Ok(b) if key == 'C' => computer(ui, player.game(), b)?,
                Ok(b) => both(ui, player.game(), b, secret())?,
                Err(e) => {
                    writeln!(ui.out, "{e}")?;
                    Outcome::Finished
                }
            }
        };
        if outcome == Outcome::EndOfInput {
            return Ok(outcome);
        }
        depth += 1;
    }
    for _ in 0..depth {
        writeln!(ui.out)?;
    }
    Ok(Outcome::Finished)
}

/// Whether `line`, typed at a game prompt, asks to leave the game.
fn leaves(game: Game, line: &str) -> bool {
    line == "Q" || (line == "q" && game.parse_code(line).is_err())
}

/// The person guesses `secret`; `?` asks `player` for a hint.
pub fn human<R: BufRead, W: Write>(
    ui: &mut Ui<'_, R, W>,
    player: &Player,
    secret: Code,
) -> io::Result<Outcome> {
    let game = player.game();
    let mut history = Vec::new();
    let mut turn = 1;
    loop {
        let Some(line) = ui.prompt(&format!("Human turn {turn}: "))? else {
            return Ok(Outcome::EndOfInput);
        };
        if line == "?" {
            let hint = hint(player, &history);
            writeln!(ui.out, "{hint}")?;
            continue;
        }
        if leaves(game, &line) {
            return Ok(Outcome::Left);
        }
        let guess = match game.parse_code(&line) {
            Ok(g) => g,
            Err(e @ Error::CodeLength { .. }) => {
                // The original ignores the line; say why only on the notes.
                ui.note(&format!(
                    "{e} (letters {}; ? for a hint, q to leave the game)",
                    game.letters()
                ))?;
                continue;
            }
            Err(e) => {
                writeln!(ui.out, "{e}")?;
                continue;
            }
        };
        let score = game.calc_score(secret, guess);
        writeln!(ui.out, "score: {}-{}", score.right, score.wrong)?;
        if score == game.win() {
            writeln!(ui.out, "Congratulation!")?;
            return Ok(Outcome::Finished);
        }
        history.push((guess, score));
        turn += 1;
    }
}

/// One line: how many codes still fit the scores `history`, and `player`'s next guess.
///
/// Falls back to `first-consistent` when the player's strategy cannot play the game.
pub fn hint(player: &Player, history: &[(Code, Score)]) -> String {
    let game = player.game();
    let mut b = match player
        .breaker()
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
pub fn computer<R: BufRead, W: Write>(
    ui: &mut Ui<'_, R, W>,
    game: Game,
    mut breaker: Breaker,
) -> io::Result<Outcome> {
    let mut turn = 1;
    loop {
        let Some(guess) = breaker.next_guess() else {
            writeln!(ui.out, "You, cheater! You've made a mistake, haven't you?")?;
            return Ok(Outcome::Finished);
        };
        let prompt = format!("Computer turn {turn}: \"{}\" => ", game.format_code(guess));
        let score = loop {
            let Some(line) = ui.prompt(&prompt)? else {
                return Ok(Outcome::EndOfInput);
            };
            if leaves(game, &line) {
                return Ok(Outcome::Left);
            }
            match game.parse_score(&line) {
                Some(s) => break s,
                None => ui.note(&format!(
                    "invalid score '{line}': expected two digits, right then wrong, with a sum \
                     of at most {} (e.g. 21), or q to leave the game",
                    game.pegs()
                ))?,
            }
        };
        if score.right as usize == game.pegs() {
            writeln!(ui.out, "I'm the best!")?;
            return Ok(Outcome::Finished);
        }
        breaker.feed(guess, score);
        turn += 1;
    }
}

/// The computer guesses its own `secret`.
pub fn both<R: BufRead, W: Write>(
    ui: &mut Ui<'_, R, W>,
    game: Game,
    mut breaker: Breaker,
    secret: Code,
) -> io::Result<Outcome> {
    let mut turn = 1;
    loop {
        let Some(guess) = breaker.next_guess() else {
            writeln!(ui.out, "You, cheater! You've made a mistake, haven't you?")?;
            return Ok(Outcome::Finished);
        };
        let score = game.calc_score(secret, guess);
        writeln!(
            ui.out,
            "Computer turn {turn}: \"{}\" => {score}",
            game.format_code(guess)
        )?;
        if score == game.win() {
            writeln!(ui.out, "I'm the best!")?;
            return Ok(Outcome::Finished);
        }
        breaker.feed(guess, score);
        turn += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The menu of spec §5 with the title `Mastermind`, up to and including the prompt.
    const MENU_BOX: &str = "\n\
        /================================\\\n\
        | Mastermind                     |\n\
        |~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~|\n\
        | [H] Human player               |\n\
        | [C] Computer player            |\n\
        | [B] Both players are computers |\n\
        | [Q] Quit                       |\n\
        |~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~|\n\
        |> ";
    const BOTTOM: &str = "\\================================/\n";

    /// A transcript and the notes of one run of `f` on `input`.
    struct Run {
        outcome: Outcome,
        out: String,
        notes: String,
    }

    #[track_caller]
    fn run(
        input: &str,
        notes: bool,
        f: impl FnOnce(&mut Ui<'_, &[u8], &mut Vec<u8>>) -> io::Result<Outcome>,
    ) -> Run {
        let mut out = Vec::new();
        let mut err = Vec::new();
        let outcome = {
            let mut ui = Ui::new(input.as_bytes(), &mut out);
            if notes {
                ui = ui.with_notes(&mut err);
            }
            f(&mut ui).unwrap()
        };
        Run {
            outcome,
            out: String::from_utf8(out).unwrap(),
            notes: String::from_utf8(err).unwrap(),
        }
    }

    fn code(game: Game, text: &str) -> Code {
        game.parse_code(text).unwrap()
    }

    fn first_consistent(game: Game) -> Player {
        Player::new(game, Strategy::FirstConsistent, None)
    }

    #[test]
    fn menu_draws_the_box_and_quits() {
        let p = first_consistent(Game::default());
        let input = " x \nquit\n\n\u{1b}[2J\nq\n";
        let r = run(input, true, |ui| {
            menu(ui, &p, &mut || unreachable!("no game is played"))
        });
        // Four rejected keys show the prompt again; the original's `main` prints one empty
        // line after its menu returns.
        assert_eq!(
            r.out,
            format!("{MENU_BOX}|> |> |> |> | ==> Quit                       |\n{BOTTOM}\n")
        );
        // Each is explained on the notes, what was typed escaped.
        let keys = "type one letter, H, C, B or Q (either case)";
        assert_eq!(
            r.notes,
            format!(
                "'x' is not on the menu: {keys}\n'quit' is not on the menu: {keys}\n\
                 no choice: {keys}\n'\\u{{1b}}[2J' is not on the menu: {keys}\n"
            )
        );
        assert_eq!(r.outcome, Outcome::Finished);
        // Without notes the transcript is the same.
        let quiet = run(input, false, |ui| {
            menu(ui, &p, &mut || unreachable!("no game is played"))
        });
        assert_eq!((quiet.out, quiet.notes), (r.out, String::new()));
    }

    #[test]
    fn q_leaves_a_game_for_the_menu() {
        let g = Game::default();
        let p = first_consistent(g);
        let r = run("H\nq\nc\nQ\nQ\n", false, |ui| {
            menu(ui, &p, &mut || code(g, "dbcb"))
        });
        // Two games played: three menu levels close with three empty lines.
        assert_eq!(
            r.out,
            format!(
                "{MENU_BOX}| ==> Human player               |\n{BOTTOM}\nHuman turn 1: \
                 {MENU_BOX}| ==> Computer player            |\n{BOTTOM}\n\
                 Computer turn 1: \"abcd\" => \
                 {MENU_BOX}| ==> Quit                       |\n{BOTTOM}\n\n\n"
            )
        );
        assert_eq!(r.outcome, Outcome::Finished);
    }

    #[test]
    fn end_of_input_in_a_menu_game_ends_everything() {
        let g = Game::default();
        let p = first_consistent(g);
        let r = run("b\nh\naaaa\n", false, |ui| {
            menu(ui, &p, &mut || code(g, "dbcb"))
        });
        // The dbcb example of spec §2, then a human game cut short after one guess
        // (aaaa against dbcb: nothing in common).
        assert_eq!(
            r.out,
            format!(
                "{MENU_BOX}| ==> Both players are computers |\n{BOTTOM}\n\
                 Computer turn 1: \"abcd\" => 21\n\
                 Computer turn 2: \"aabd\" => 02\n\
                 Computer turn 3: \"bbca\" => 21\n\
                 Computer turn 4: \"dbcb\" => 40\n\
                 I'm the best!\n\
                 {MENU_BOX}| ==> Human player               |\n{BOTTOM}\n\
                 Human turn 1: score: 0-0\nHuman turn 2: "
            )
        );
        assert_eq!(r.outcome, Outcome::EndOfInput);
    }

    #[test]
    fn menu_reports_a_player_that_cannot_play() {
        // 26^8 = 208827064576 codes: too many for knuth.
        let p = Player::new(Game::new(8, 26).unwrap(), Strategy::Knuth, None);
        let r = run("c\nq\n", false, |ui| menu(ui, &p, &mut || Code(0)));
        assert!(
            r.out.contains(&format!(
                "{BOTTOM}\nstrategy 'knuth' supports games of at most 2097152 codes; this one has \
                 208827064576 (use first-consistent)\n\n/"
            )),
            "{}",
            r.out
        );
    }

    #[test]
    fn computer_game_repeats_the_prompt_and_explains_on_the_notes() {
        let g = Game::default();
        let p = first_consistent(g);
        let input = "21\n5x\n41\n2\n02\n 21 \n40\n";
        let r = run(input, true, |ui| computer(ui, g, p.breaker().unwrap()));
        // The dbcb example (spec §2); "5x", "41" (sum above 4) and "2" are rejected.
        let prompt2 = "Computer turn 2: \"aabd\" => ";
        assert_eq!(
            r.out,
            format!(
                "Computer turn 1: \"abcd\" => {p2}{p2}{p2}{p2}Computer turn 3: \"bbca\" => \
                 Computer turn 4: \"dbcb\" => I'm the best!\n",
                p2 = prompt2
            )
        );
        let why = |s: &str| {
            format!(
                "invalid score '{s}': expected two digits, right then wrong, with a sum of at \
                 most 4 (e.g. 21), or q to leave the game\n"
            )
        };
        assert_eq!(r.notes, format!("{}{}{}", why("5x"), why("41"), why("2")));
        assert_eq!(r.outcome, Outcome::Finished);
        // Without notes the transcript is the same.
        let quiet = run(input, false, |ui| computer(ui, g, p.breaker().unwrap()));
        assert_eq!((quiet.out, quiet.notes), (r.out, String::new()));
    }

    #[test]
    fn computer_game_catches_a_cheater_and_can_be_left() {
        let g = Game::default();
        let p = first_consistent(g);
        // abcd 00 leaves the codes over {e, f}; eeee 00 leaves ffff; ffff 00 leaves nothing.
        let r = run("00\n00\n00\n", true, |ui| {
            computer(ui, g, p.breaker().unwrap())
        });
        assert_eq!(
            r.out,
            "Computer turn 1: \"abcd\" => Computer turn 2: \"eeee\" => \
             Computer turn 3: \"ffff\" => You, cheater! You've made a mistake, haven't you?\n"
        );
        let r = run("21\nq\n", true, |ui| computer(ui, g, p.breaker().unwrap()));
        assert_eq!(
            r.out,
            "Computer turn 1: \"abcd\" => Computer turn 2: \"aabd\" => "
        );
        assert_eq!((r.outcome, r.notes.as_str()), (Outcome::Left, ""));
    }

    #[test]
    fn human_game_with_hints_and_refused_guesses() {
        // 2 pegs, 2 colours, secret ab. The original order is ab, aa, ba, bb. aa scores 1-0
        // against ab and leaves {ab, ba}; ba scores 0-2; ab wins.
        let g = Game::new(2, 2).unwrap();
        let p = first_consistent(g);
        let input = "?\naa\n?\nabc\nac\nba\nab\n";
        let r = run(input, true, |ui| human(ui, &p, code(g, "ab")));
        assert_eq!(
            r.out,
            "Human turn 1: 4 codes are still possible: try ab\n\
             Human turn 1: score: 1-0\n\
             Human turn 2: 2 codes are still possible: try ab\n\
             Human turn 2: Human turn 2: invalid code 'ac': letter 'c' at position 2 is not a \
             colour, expected letters a-b\n\
             Human turn 2: score: 0-2\n\
             Human turn 3: score: 2-0\n\
             Congratulation!\n"
        );
        assert_eq!(
            r.notes,
            "invalid code 'abc': it has 3 letters, expected 2 (letters a-b; ? for a hint, q to \
             leave the game)\n"
        );
        assert_eq!(r.outcome, Outcome::Finished);
    }

    #[test]
    fn q_is_a_guess_where_it_is_a_colour() {
        // One peg, 17 colours (a-q): q is a code, only Q leaves.
        let g = Game::new(1, 17).unwrap();
        let p = first_consistent(g);
        let r = run("q\nQ\n", true, |ui| human(ui, &p, code(g, "a")));
        assert_eq!(r.out, "Human turn 1: score: 0-0\nHuman turn 2: ");
        assert_eq!(r.outcome, Outcome::Left);
        let g = Game::new(1, 16).unwrap();
        let p = first_consistent(g);
        let r = run("q\n", true, |ui| human(ui, &p, code(g, "a")));
        assert_eq!(
            (r.out.as_str(), r.outcome),
            ("Human turn 1: ", Outcome::Left)
        );
    }

    #[test]
    fn end_of_input_at_a_game_prompt() {
        let g = Game::default();
        let p = first_consistent(g);
        let r = run("", true, |ui| human(ui, &p, code(g, "dbcb")));
        assert_eq!(
            (r.out.as_str(), r.outcome),
            ("Human turn 1: ", Outcome::EndOfInput)
        );
        let r = run("21\n", true, |ui| computer(ui, g, p.breaker().unwrap()));
        assert_eq!(r.outcome, Outcome::EndOfInput);
    }

    #[test]
    fn both_plays_a_small_game() {
        // 3 pegs, 2 colours: first guess aba; bbb gives 10; the first code in the original
        // order with score 10 against aba is bbb.
        let g = Game::new(3, 2).unwrap();
        let p = first_consistent(g);
        let r = run("", false, |ui| {
            both(ui, g, p.breaker().unwrap(), code(g, "bbb"))
        });
        assert_eq!(
            r.out,
            "Computer turn 1: \"aba\" => 10\nComputer turn 2: \"bbb\" => 30\nI'm the best!\n"
        );
    }

    #[test]
    fn hints_fall_back_to_first_consistent() {
        // knuth cannot play 8 pegs of 26 colours; first-consistent starts with abcdefgh.
        let p = Player::new(Game::new(8, 26).unwrap(), Strategy::Knuth, None);
        assert_eq!(
            hint(&p, &[]),
            "more than 100000 codes are still possible: try abcdefgh"
        );
        // Knuth's first guess for 4x6 (spec §7); a score no code gives leaves nothing.
        let g = Game::default();
        let p = Player::new(g, Strategy::Knuth, None);
        assert_eq!(hint(&p, &[]), "1296 codes are still possible: try aabb");
        let aabb = code(g, "aabb");
        assert_eq!(hint(&p, &[(aabb, Score::new(3, 1))]), "no code is possible");
    }
}
