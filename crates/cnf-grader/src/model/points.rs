//! The assignment's points (spec §6): per part, compilation points and
//! test-case points shared equally among that part's cases.
//!
//! Decisions: a part's compilation points are granted when at least one of
//! its cases ran to its end by itself (passed, or failed without a crash, a
//! timeout or a failure to start); a non-zero exit still counts as having
//! run; when the grader compiled the part itself (`submission`,
//! [`points_compiled`]) they are granted exactly when GHC succeeded. Cases in `ERROR` (broken fixtures) are not the program's fault and
//! are left out of the sharing; skipped cases count as not passed. A part
//! with no case gets no test-case points.
//!
//! The groups ([`Group`]): the base is out of 100 and counts base cases
//! only; extra-credit cases share [`EXTRA_CREDIT`] points (the assignment's
//! 10 %) equally, scored apart and never part of the 100; edge cases are
//! counted (passed of graded) and shown apart, and share their part's
//! test-case points with the base cases only when asked
//! ([`Scoring::edge_in_base`]). Any case that ran shows that its part
//! compiled, whatever its group.

use std::fmt::Write as _;

use serde::{Deserialize, Deserializer, Serialize};

use crate::assignment::Assignment;

use crate::model::case::{CaseReport, Group, Status};

/// The points of one part.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PartPoints {
    /// The part number, 1 to 4.
    pub part: u8,
    /// The function's name.
    #[serde(deserialize_with = "function_name")]
    pub function: FunctionName,
    /// Whether the compilation points were granted.
    pub compiled: bool,
    /// Compilation points earned.
    pub compilation: f64,
    /// Compilation points available.
    pub compilation_max: f64,
    /// Graded cases of the part (errors left out).
    pub cases: usize,
    /// Cases that passed.
    pub passed: usize,
    /// Test-case points earned.
    pub test_cases: f64,
    /// Test-case points available.
    pub test_cases_max: f64,
    /// Both together.
    pub total: f64,
    /// Both available together.
    pub total_max: f64,
}

/// The score of a grading run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Points {
    /// Parts 1 to 4.
    pub parts: Vec<PartPoints>,
    /// Points earned of the base assignment.
    pub total: f64,
    /// Points available (100).
    pub total_max: f64,
    /// The extra credit, scored apart from the 100.
    #[serde(default)]
    pub extra_credit: GroupScore,
    /// The edge cases, shown apart.
    #[serde(default)]
    pub edge: GroupScore,
}

/// The result of the extra-credit or the edge cases.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct GroupScore {
    /// Graded cases of the group (errors left out).
    pub cases: usize,
    /// Cases that passed.
    pub passed: usize,
    /// Points earned apart from the base (extra credit only).
    pub points: f64,
    /// Points available apart from the base: [`EXTRA_CREDIT`] when the
    /// extra credit has cases, 0 for the edge group.
    pub points_max: f64,
    /// Whether the group's cases count in the base parts' points instead.
    pub in_base: bool,
}

/// The extra credit's points: 10 % of the assignment's 100.
pub const EXTRA_CREDIT: f64 = 10.0;

/// How cases are scored beyond the assignment's table.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Scoring {
    /// Edge cases share their part's test-case points with the base cases.
    pub edge_in_base: bool,
}

/// A function's name, as [`Assignment::functions`] gives it (an alias, so that
/// serde reads it with `function_name` and does not borrow it).
pub type FunctionName = &'static str;

/// Reads a function's name back as the name an assignment itself holds.
fn function_name<'de, D: Deserializer<'de>>(d: D) -> Result<&'static str, D::Error> {
    let name = String::deserialize(d)?;
    Assignment::ALL
        .iter()
        .flat_map(|a| a.functions())
        .find(|f| *f == name)
        .ok_or_else(|| serde::de::Error::custom(format!("unknown function {name:?}")))
}

/// The Connect Four assignment's allocation: (compilation, test cases) per part.
pub const ALLOCATION: [(f64, f64); 4] = [(10.0, 10.0), (10.0, 10.0), (10.0, 20.0), (10.0, 20.0)];

/// An assignment's point table: its parts' names and (compilation, test
/// cases) points per part.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Table {
    /// The assignment (its parts' names).
    pub assignment: Assignment,
    /// (compilation, test cases) per part, part 1 first.
    pub allocation: [(f64, f64); 4],
}

impl Table {
    /// The assignment's own table ([`Assignment::allocation`]).
    pub fn of(assignment: Assignment) -> Table {
        Table {
            assignment,
            allocation: assignment.allocation(),
        }
    }

    /// The assignment's table with each part worth `weights` points in all
    /// (`--weights`): the compilation points keep their share of the part.
    pub fn weighted(assignment: Assignment, weights: [f64; 4]) -> Table {
        let mut allocation = assignment.allocation();
        for ((compilation, tests), weight) in allocation.iter_mut().zip(weights) {
            let total = *compilation + *tests;
            let share = if total > 0.0 {
                *compilation / total
            } else {
                0.0
            };
            *compilation = weight * share;
            *tests = weight - *compilation;
        }
        Table {
            assignment,
            allocation,
        }
    }
}

impl Default for Table {
    fn default() -> Self {
        Table::of(Assignment::default())
    }
}

/// Scores a run's cases (edge cases apart).
pub fn points(cases: &[CaseReport]) -> Points {
    score(cases, None, Scoring::default(), &Table::default())
}

/// Scores a run's cases as `scoring` says.
pub fn points_with(cases: &[CaseReport], scoring: Scoring) -> Points {
    score(cases, None, scoring, &Table::default())
}

/// Scores a run's cases when it is known which parts compiled (part 1
/// first): their compilation points follow that, not the cases.
pub fn points_compiled(cases: &[CaseReport], compiled: [bool; 4], scoring: Scoring) -> Points {
    score(cases, Some(compiled), scoring, &Table::default())
}

/// Scores a submission's cases by an assignment's point table, when it is
/// known which parts compiled (part 1 first).
pub fn points_by(
    cases: &[CaseReport],
    compiled: [bool; 4],
    scoring: Scoring,
    table: &Table,
) -> Points {
    score(cases, Some(compiled), scoring, table)
}

fn score(
    cases: &[CaseReport],
    known: Option<[bool; 4]>,
    scoring: Scoring,
    table: &Table,
) -> Points {
    let counted = |c: &&CaseReport| match c.group {
        Group::Base => true,
        Group::Edge => scoring.edge_in_base,
        Group::ExtraCredit => false,
    };
    let parts: Vec<PartPoints> = (1..=4u8)
        .zip(table.allocation)
        .map(|(part, (compilation_max, test_cases_max))| {
            let all = cases
                .iter()
                .filter(|c| c.part == Some(part) && c.status != Status::Error);
            let mine = all.clone().filter(counted);
            let compiled = match known {
                Some(known) => known[usize::from(part - 1)],
                None => all.clone().any(|c| match c.status {
                    Status::Pass => true,
                    Status::Fail => c.kind().is_some_and(|k| k.ran()),
                    _ => false,
                }),
            };
            let graded = mine.clone().count();
            let passed = mine.filter(|c| c.status == Status::Pass).count();
            let compilation = if compiled { compilation_max } else { 0.0 };
            let test_cases = if graded == 0 {
                0.0
            } else {
                test_cases_max * passed as f64 / graded as f64
            };
            PartPoints {
                part,
                function: table.assignment.function(part),
                compiled,
                compilation,
                compilation_max,
                cases: graded,
                passed,
                test_cases,
                test_cases_max,
                total: compilation + test_cases,
                total_max: compilation_max + test_cases_max,
            }
        })
        .collect();
    let group = |group: Group| {
        let graded = cases
            .iter()
            .filter(|c| c.group == group && c.part.is_some() && c.status != Status::Error);
        let n = graded.clone().count();
        (n, graded.filter(|c| c.status == Status::Pass).count())
    };
    let (cases_x, passed_x) = group(Group::ExtraCredit);
    let extra_max = if cases_x == 0 { 0.0 } else { EXTRA_CREDIT };
    let (cases_e, passed_e) = group(Group::Edge);
    Points {
        total: parts.iter().map(|p| p.total).sum(),
        total_max: parts.iter().map(|p| p.total_max).sum(),
        parts,
        extra_credit: GroupScore {
            cases: cases_x,
            passed: passed_x,
            points: if cases_x == 0 {
                0.0
            } else {
                extra_max * passed_x as f64 / cases_x as f64
            },
            points_max: extra_max,
            in_base: false,
        },
        edge: GroupScore {
            cases: cases_e,
            passed: passed_e,
            points: 0.0,
            points_max: 0.0,
            in_base: scoring.edge_in_base,
        },
    }
}

impl Points {
    /// The assignment these points are of, known by its parts' names.
    pub fn assignment(&self) -> Assignment {
        let first = self.parts.first().map(|p| p.function);
        Assignment::ALL
            .into_iter()
            .find(|a| Some(a.functions()[0]) == first)
            .unwrap_or_default()
    }

    /// The score table, one line per part and a total line.
    pub fn table(&self) -> String {
        if self.parts.iter().all(|p| p.compilation_max == 0.0) {
            return self.table_without_compilation();
        }
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{:<4}  {:<20}  {:>11}  {:>16}  {:>12}",
            "part", "function", "compilation", "test cases", "total"
        );
        for p in &self.parts {
            let cases = format!("({}/{})", p.passed, p.cases);
            let _ = writeln!(
                out,
                "{:<4}  {:<20}  {:>11}  {:>16}  {:>12}",
                p.part,
                p.function,
                format!("{:.0}/{:.0}", p.compilation, p.compilation_max),
                format!("{cases} {:.2}/{:.0}", p.test_cases, p.test_cases_max),
                format!("{:.2}/{:.0}", p.total, p.total_max),
            );
        }
        let _ = writeln!(
            out,
            "{:<4}  {:<20}  {:>11}  {:>16}  {:>12}",
            "",
            "total",
            "",
            "",
            format!("{:.2}/{:.0}", self.total, self.total_max)
        );
        for line in self.apart() {
            let _ = writeln!(out, "{line}");
        }
        out
    }

    /// The score table of an assignment whose parts earn nothing for
    /// compiling (Peg Reversal): one line per function and a total line.
    fn table_without_compilation(&self) -> String {
        let mut out = String::new();
        let w = self
            .parts
            .iter()
            .map(|p| p.function.len())
            .max()
            .unwrap_or(0)
            .max("function".len());
        let _ = writeln!(
            out,
            "{:<w$}  {:>10}  {:>12}",
            "function", "test cases", "total"
        );
        for p in &self.parts {
            let _ = writeln!(
                out,
                "{:<w$}  {:>10}  {:>12}",
                p.function,
                format!("({}/{})", p.passed, p.cases),
                format!("{:.2}/{}", p.total, trim_points(p.total_max)),
            );
        }
        let _ = writeln!(
            out,
            "{:<w$}  {:>10}  {:>12}",
            "total",
            "",
            format!("{:.2}/{}", self.total, trim_points(self.total_max))
        );
        for line in self.apart() {
            let _ = writeln!(out, "{line}");
        }
        out
    }

    /// The lines that follow the table: the extra credit and the edge
    /// cases, each when it has cases.
    pub fn apart(&self) -> Vec<String> {
        let mut lines = Vec::new();
        let x = &self.extra_credit;
        if x.cases > 0 {
            lines.push(format!(
                "{:<4}  {:<20}  {:>11}  {:>16}  {:>12}",
                "",
                "extra credit",
                "",
                format!("({}/{})", x.passed, x.cases),
                format!("+{:.2}/{:.0}", x.points, x.points_max)
            ));
        }
        let e = &self.edge;
        if e.cases > 0 {
            lines.push(format!(
                "{:<4}  {:<20}  {:>11}  {:>16}  {}",
                "",
                "edge cases",
                "",
                format!("({}/{})", e.passed, e.cases),
                if e.in_base {
                    "counted in the parts above"
                } else {
                    "not counted in the total"
                }
            ));
        }
        lines
    }
}

/// Points available, as a whole number when they are one (`25`, `12.5`).
fn trim_points(p: f64) -> String {
    if p.fract() == 0.0 {
        format!("{p:.0}")
    } else {
        format!("{p}")
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::model::case::{Clock, Failure};
    use connect_core::Function;

    fn case(part: u8, status: Status, failure: Option<Failure>) -> CaseReport {
        CaseReport {
            fixture: "f.cnf".into(),
            function: Function::from_part(part).unwrap().name().into(),
            part: Some(part),
            solution: "f.s".into(),
            status,
            failure,
            reason: None,
            diff: None,
            stderr: None,
            duration: Duration::ZERO,
            hidden: false,
            relaxed: false,
            group: Default::default(),
            usage: None,
        }
    }

    #[test]
    fn shares_and_compilation_by_hand() {
        let cases = vec![
            // Part 1: 1 of 2 passed -> 10 + 5.
            case(1, Status::Pass, None),
            case(1, Status::Fail, Some(Failure::WrongOutput)),
            // Part 2: only timeouts -> nothing.
            case(
                2,
                Status::Fail,
                Some(Failure::TimeLimit {
                    clock: Clock::Cpu,
                    limit: Duration::from_secs(1),
                    again: false,
                }),
            ),
            // Part 3: a non-zero exit still ran; an error is left out -> 10 + 0.
            case(3, Status::Fail, Some(Failure::Exited { code: 1 })),
            case(3, Status::Error, None),
            // Part 4: 3 of 4 passed -> 10 + 15.
            case(4, Status::Pass, None),
            case(4, Status::Pass, None),
            case(4, Status::Pass, None),
            case(
                4,
                Status::Fail,
                Some(Failure::Signalled {
                    signal: 11,
                    via_shell: false,
                }),
            ),
        ];
        let p = points(&cases);
        let totals: Vec<f64> = p.parts.iter().map(|x| x.total).collect();
        assert_eq!(totals, [15.0, 0.0, 10.0, 25.0]);
        assert_eq!(p.total, 50.0);
        assert_eq!(p.total_max, 100.0);
        assert_eq!(p.parts[2].cases, 1);
        let table = p.table();
        assert!(table.contains("(3/4) 15.00/20"), "{table}");
        assert!(table.ends_with("50.00/100\n"), "{table}");
    }

    #[test]
    fn extra_credit_and_edge_cases_are_scored_apart() {
        let grouped = |part, status, group| CaseReport {
            group,
            ..case(part, status, None)
        };
        let cases = vec![
            // Part 3: one base case passed, one edge case failed.
            grouped(3, Status::Pass, Group::Base),
            grouped(3, Status::Fail, Group::Edge),
            // Part 4: the base case failed; its extra-credit cases passed,
            // which also shows the part compiled.
            grouped(4, Status::Fail, Group::Base),
            grouped(4, Status::Pass, Group::ExtraCredit),
            grouped(4, Status::Pass, Group::ExtraCredit),
            grouped(4, Status::Fail, Group::ExtraCredit),
            grouped(4, Status::Fail, Group::ExtraCredit),
        ];
        let p = points(&cases);
        // Part 3: 10 + 20 (1/1 base); part 4: 10 + 0 (0/1 base).
        assert_eq!(p.parts[2].total, 30.0);
        assert_eq!((p.parts[3].compiled, p.parts[3].total), (true, 10.0));
        assert_eq!(p.total, 40.0);
        // 2 of 4 extra-credit cases: 5 of 10.
        assert_eq!((p.extra_credit.passed, p.extra_credit.cases), (2, 4));
        assert_eq!(
            (p.extra_credit.points, p.extra_credit.points_max),
            (5.0, 10.0)
        );
        assert_eq!((p.edge.passed, p.edge.cases, p.edge.in_base), (0, 1, false));
        let table = p.table();
        assert!(table.contains("(2/4)      +5.00/10"), "{table}");
        assert!(table.contains("(0/1)  not counted in the total"), "{table}");
        // Counted in the base, the edge case halves part 3's test cases.
        let counted = points_with(&cases, Scoring { edge_in_base: true });
        assert_eq!(counted.parts[2].total, 20.0);
        assert_eq!(counted.total, 30.0);
        assert!(counted.edge.in_base);
        // No extra-credit case: nothing to earn.
        let base_only = points(&cases[..3]);
        assert_eq!(base_only.extra_credit, GroupScore::default());
    }
}
