//! What an assignment is to the grader: the one place that says what
//! differs between the assignments it grades, so that discovery, the
//! sandboxed builds and runs, the cache, `--resume`, shards and every report
//! work for any of them without naming one.
//!
//! An [`Assignment`] names its four parts (Connect Four: the part files
//! `csce322assignment03part01.hs` … `part04.hs`, one program each; Peg
//! Reversal: the functions `createBoard` … `showPossibleNextStates` of the
//! student's one file, each built with a driver the grader writes), how a
//! submission's sources are found ([`connect_four`], [`peg_reversal`]), how
//! each part is built and run (`crate::submission::build` and
//! `crate::submission::peg`), its point table ([`Assignment::allocation`]) and
//! its default fixtures ([`Assignment::default_fixtures`]).
//!
//! This folder imports nothing of the crate but [`crate::escape`]: the model
//! and the reports read an assignment's names and point table from here.
//!
//! A third assignment needs: its variant here (with its arm in each
//! `match` below), its folder (`assignment/NAME/`: how its sources are found
//! and prepared, its cases' format), and its arm where a part is built and a
//! case is run (`prepare_student` and `grade_many_indexed` in
//! `crate::submission::run`, and `Prepared`'s methods in
//! `crate::submission::prepare`).

pub mod connect_four;
pub mod peg_reversal;

use serde::{Deserialize, Serialize};

/// An assignment the grader grades.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord,
)]
#[serde(rename_all = "kebab-case")]
pub enum Assignment {
    /// The Connect Four variant (the four part files, the `.cnf` fixtures).
    #[default]
    ConnectFour,
    /// Peg Reversal: the four functions of one student file, `.call` cases.
    PegReversal,
}

impl Assignment {
    /// Every assignment, in the order `--assignment` lists them.
    pub const ALL: [Assignment; 2] = [Assignment::ConnectFour, Assignment::PegReversal];

    /// Its name on the command line and in reports: `connect-four`, `peg-reversal`.
    pub fn name(self) -> &'static str {
        match self {
            Assignment::ConnectFour => "connect-four",
            Assignment::PegReversal => "peg-reversal",
        }
    }

    /// The assignment of this name.
    pub fn from_name(name: &str) -> Option<Assignment> {
        Assignment::ALL.into_iter().find(|a| a.name() == name)
    }

    /// Whether it is the default one (what reports leave unsaid, so that
    /// Connect Four's reports stay as they were).
    pub fn is_default(&self) -> bool {
        *self == Assignment::default()
    }

    /// The names of its four parts, part 1 first: Connect Four's functions
    /// (one part file each), Peg Reversal's functions.
    pub fn functions(self) -> [&'static str; 4] {
        match self {
            Assignment::ConnectFour => connect_four::FUNCTIONS,
            Assignment::PegReversal => peg_reversal::FUNCTIONS,
        }
    }

    /// The part (1 to 4) whose function is named `name`.
    pub fn part_of(self, name: &str) -> Option<u8> {
        self.functions()
            .iter()
            .position(|f| *f == name)
            .and_then(|at| u8::try_from(at + 1).ok())
    }

    /// How notes and reports name a part: `part 1` (Connect Four),
    /// `createBoard` (Peg Reversal).
    pub fn part_label(self, part: u8) -> String {
        match self {
            Assignment::ConnectFour => format!("part {part}"),
            Assignment::PegReversal => self.function(part).to_owned(),
        }
    }

    /// A gradebook's column of a part: `part1` (Connect Four), `createBoard`.
    pub fn part_column(self, part: u8) -> String {
        match self {
            Assignment::ConnectFour => format!("part{part}"),
            Assignment::PegReversal => self.function(part).to_owned(),
        }
    }

    /// The function of part `part` (1 to 4; `?` otherwise).
    pub fn function(self, part: u8) -> &'static str {
        usize::from(part)
            .checked_sub(1)
            .and_then(|at| self.functions().get(at).copied())
            .unwrap_or("?")
    }

    /// The default point table: (compilation, test cases) per part. Connect
    /// Four's is the course's (spec §6); Peg Reversal's gives each function
    /// 25 points shared equally among its cases (its spec §5).
    pub fn allocation(self) -> [(f64, f64); 4] {
        match self {
            Assignment::ConnectFour => [(10.0, 10.0), (10.0, 10.0), (10.0, 20.0), (10.0, 20.0)],
            Assignment::PegReversal => [(0.0, 25.0); 4],
        }
    }

    /// Whether a part earns points for compiling (Connect Four's table).
    pub fn has_compilation_points(self) -> bool {
        self.allocation().iter().any(|(c, _)| *c > 0.0)
    }

    /// Whether it has Connect Four's extra credit and edge cases, so that
    /// its gradebooks carry their columns (Peg Reversal's have neither).
    pub fn has_extra_credit(self) -> bool {
        matches!(self, Assignment::ConnectFour)
    }

    /// The fixtures folder graded on when none is given.
    pub fn default_fixtures(self) -> &'static str {
        match self {
            Assignment::ConnectFour => "fixtures/",
            Assignment::PegReversal => "fixtures/peg-reversal/",
        }
    }

    /// What a submission folder holds, for messages: `the folder with …`.
    pub fn submission_words(self) -> &'static str {
        match self {
            Assignment::ConnectFour => "the folder with csce322assignment03part01.hs ... part04.hs",
            Assignment::PegReversal => "the folder with the student's .hs file",
        }
    }
}

impl std::fmt::Display for Assignment {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Assignment {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Assignment::from_name(s).ok_or_else(|| {
            let names: Vec<&str> = Assignment::ALL.iter().map(|a| a.name()).collect();
            format!(
                "unknown assignment {s:?}; the assignments are {}",
                names.join(", ")
            )
        })
    }
}

/// Points per part given on the command line (`--weights`): four numbers,
/// `25,25,25,25`, or some parts by function name, `createBoard=40,isGoal=10`
/// (the others keep the default).
pub fn parse_weights(assignment: Assignment, text: &str) -> Result<[f64; 4], String> {
    let mut weights: [f64; 4] = assignment.allocation().map(|(c, t)| c + t);
    let items: Vec<&str> = text.split(',').map(str::trim).collect();
    let number = |s: &str| -> Result<f64, String> {
        s.parse::<f64>()
            .ok()
            .filter(|w| w.is_finite() && *w >= 0.0)
            .ok_or_else(|| format!("{s:?} is not a number of points (e.g. 25 or 12.5)"))
    };
    if items.iter().all(|i| !i.contains('=')) {
        if items.len() != 4 {
            return Err(format!(
                "{} weights given; give four, one per part ({}), e.g. 25,25,25,25",
                items.len(),
                assignment.functions().join(", ")
            ));
        }
        for (w, item) in weights.iter_mut().zip(&items) {
            *w = number(item)?;
        }
        return Ok(weights);
    }
    for item in items {
        let Some((name, value)) = item.split_once('=') else {
            return Err(format!(
                "{item:?}: give every weight as FUNCTION=POINTS, or four numbers"
            ));
        };
        let part = assignment.part_of(name.trim()).ok_or_else(|| {
            format!(
                "{:?} is not a function of {}; the functions are {}",
                name.trim(),
                assignment.name(),
                assignment.functions().join(", ")
            )
        })?;
        weights[usize::from(part - 1)] = number(value.trim())?;
    }
    Ok(weights)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parts_and_labels() {
        assert_eq!("peg-reversal".parse(), Ok(Assignment::PegReversal));
        assert!("peg".parse::<Assignment>().is_err());
        assert_eq!(Assignment::default(), Assignment::ConnectFour);
        assert_eq!(Assignment::PegReversal.part_of("isGoal"), Some(3));
        assert_eq!(Assignment::ConnectFour.part_label(2), "part 2");
        assert_eq!(
            Assignment::PegReversal.part_label(4),
            "showPossibleNextStates"
        );
        assert_eq!(Assignment::ConnectFour.part_column(4), "part4");
        let total = |a: Assignment| a.allocation().iter().map(|(c, t)| c + t).sum::<f64>();
        assert_eq!(total(Assignment::ConnectFour), 100.0);
        assert_eq!(total(Assignment::PegReversal), 100.0);
    }

    #[test]
    fn weights_by_position_or_by_name() {
        let peg = Assignment::PegReversal;
        assert_eq!(
            parse_weights(peg, "10,20,30,40"),
            Ok([10.0, 20.0, 30.0, 40.0])
        );
        assert_eq!(
            parse_weights(peg, "createBoard=40, isGoal=10"),
            Ok([40.0, 25.0, 10.0, 25.0])
        );
        assert!(
            parse_weights(peg, "1,2,3")
                .unwrap_err()
                .contains("3 weights")
        );
        assert!(
            parse_weights(peg, "play=3")
                .unwrap_err()
                .contains("not a function")
        );
        assert!(
            parse_weights(peg, "a,b,c,d")
                .unwrap_err()
                .contains("not a number")
        );
    }
}
