//! A class compared for copying, as data: the options, every student's
//! files and fingerprints, the pairs with their matching definitions, and
//! the report's provenance. `crate::similarity` computes it;
//! `crate::report::similarity` renders it.

use std::path::Path;

/// How students are compared.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// Tokens in a k-gram: no shared run shorter than this counts.
    pub k: usize,
    /// Winnowing's window: every shared run of `k + window - 1` tokens or
    /// more is found.
    pub window: usize,
    /// A fingerprint held by more students than this is common code, not
    /// evidence, and is ignored (`None`: a tenth of the class, at least 10).
    pub max_share: Option<usize>,
    /// Each student's closest pairs kept; no other pair is, so the pairs
    /// kept grow with the class, not its square (the evidence of the
    /// highest [`Options::evidence`] of them only).
    pub closest: usize,
    /// The similarity from which pairs are listed (`None`: the class's
    /// own cut, [`cut`]).
    pub threshold: Option<f64>,
    /// The highest pairs listed whatever the cut.
    pub top: usize,
    /// How many of the pairs kept, highest first, get their evidence (the
    /// matching definitions and lines); the others have none, so that the
    /// work and the report stay bounded in a class of many alike.
    pub evidence: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            k: 12,
            window: 8,
            max_share: None,
            closest: 10,
            threshold: None,
            top: 10,
            evidence: 300,
        }
    }
}

impl Options {
    /// The share limit for a class of `students`.
    pub fn share_limit(&self, students: usize) -> usize {
        self.max_share.unwrap_or((students / 10).max(10))
    }
}

/// One source file's text (lossily UTF-8: an invalid byte becomes U+FFFD).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceText {
    /// Its name in the student's folder.
    pub name: String,
    /// Its text.
    pub text: String,
}

/// One student as compared.
#[derive(Debug, Clone, PartialEq)]
pub struct Student {
    /// The folder name.
    pub name: String,
    /// The files compared.
    pub files: Vec<SourceText>,
    /// Their fingerprints once base and common code are removed.
    pub fingerprints: usize,
    /// The names of each file's definitions, as written.
    pub definitions: Vec<Vec<String>>,
    /// Why some files were not read or compared.
    pub notes: Vec<String>,
}

/// Lines of one file of one student.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Region {
    /// The index of the file in [`Student::files`].
    pub file: usize,
    /// The index of the definition in that file's definitions.
    pub definition: usize,
    /// The first and last lines (from 1) of the matching k-grams.
    pub lines: (u32, u32),
    /// Every line holding a token of a matching k-gram, in order.
    pub matched: Vec<u32>,
}

/// A definition of one student matching a definition of the other.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Match {
    /// The first student's side.
    pub a: Region,
    /// The second student's side.
    pub b: Region,
    /// The fingerprints the two definitions share.
    pub shared: usize,
}

/// Two students who share fingerprints.
#[derive(Debug, Clone, PartialEq)]
pub struct Pair {
    /// One student (an index into [`Report::students`]; `a < b`).
    pub a: usize,
    /// The other.
    pub b: usize,
    /// The fingerprints they share.
    pub shared: usize,
    /// The mean of `shared` over the fingerprints of the one with fewer
    /// and `shared` over those of the one with more, 0 to 1: see [`score`].
    pub similarity: f64,
    /// The matching definitions, by `a`'s file and line (`None`: beyond
    /// [`Options::evidence`], not looked for).
    pub matches: Option<Vec<Match>>,
}

/// A class compared.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// Every student, sorted by name.
    pub students: Vec<Student>,
    /// The pairs sharing a fingerprint that are kept (each student's
    /// [`Options::closest`] pairs), highest similarity first.
    pub pairs: Vec<Pair>,
    /// How many pairs share a fingerprint, kept or not.
    pub sharing: usize,
    /// Where the list starts, and why.
    pub cut: Cut,
    /// How many pairs (kept or not) are at or above the cut.
    pub above_cut: usize,
    /// How many pairs (kept or not) are flagged: at or above
    /// [`Cut::flag_from`].
    pub flagged: usize,
    /// The options used.
    pub options: Options,
    /// The share limit applied.
    pub share_limit: usize,
    /// Distinct fingerprints of the base code.
    pub base_fingerprints: usize,
    /// Distinct fingerprints ignored as held by too many students.
    pub common_fingerprints: usize,
}

/// The similarity from which pairs are listed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cut {
    /// The similarity (two decimals).
    pub at: f64,
    /// The median similarity of all pairs (those sharing nothing at 0).
    pub median: f64,
    /// Their median absolute deviation from it.
    pub mad: f64,
    /// Whether `at` was given (`--threshold`) rather than found.
    pub fixed: bool,
    /// The lowest similarity flagged (listed, and not called below the
    /// cut): `at`, or lower when pairs are within [`NEAR_TOP`] of the
    /// highest or in the [`Cut::cluster`] (`at` itself when given).
    pub flag_from: f64,
    /// The class's top cluster, when a gap wider than [`NEAR_TOP`] sets
    /// it off (`None` when the cut is given).
    pub cluster: Option<Cluster>,
}

/// The pairs above the widest gap between the similarities of a class
/// (among those from [`LOWEST_CUT`] up): in a class that mostly copied,
/// the copies, whatever the cut.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cluster {
    /// The lowest similarity in the cluster.
    pub from: f64,
    /// The highest similarity below it (0 when none is).
    pub next: f64,
}

/// How close to the class's highest pair a pair is flagged with it,
/// whatever the cut: when most of a class copied, the cut (which takes
/// the mass of the pairs as the norm) can sit above copies a few edits
/// apart.
pub const NEAR_TOP: f64 = 0.05;

/// The cut of a class where no pair shares anything (the median and its
/// deviation 0): no pair below it is flagged for being near the top.
pub const LOWEST_CUT: f64 = 0.11;

/// How far above the median, in median absolute deviations, a pair must
/// be to stand out: the modified z-score 0.6745·(x − median)/MAD above 3.5
/// (Iglewicz and Hoaglin's rule for outliers).
pub const OUTLIER_Z: f64 = 3.5;

/// The smallest deviation the cut is computed with: in a class where most
/// pairs share about the same little, a pair two points above them does
/// not stand out.
pub const MIN_MAD: f64 = 0.02;

/// The cut for a class whose pairs' similarities (in hundredths, a pair
/// sharing nothing at 0) are counted in `histogram` (101 bins).
pub fn cut(histogram: &[u64]) -> Cut {
    let total: u64 = histogram.iter().sum();
    let quantile = |bins: &dyn Fn(usize) -> u64, len: usize| -> f64 {
        // The lower median.
        let half = total.div_ceil(2);
        let mut seen = 0;
        for i in 0..len {
            seen += bins(i);
            if seen >= half && total > 0 {
                return i as f64 / 100.0;
            }
        }
        0.0
    };
    let median = quantile(&|i| histogram.get(i).copied().unwrap_or(0), histogram.len());
    let m = (median * 100.0).round() as usize;
    // Deviations |i - m| in hundredths.
    let deviation = |d: usize| -> u64 {
        let up = histogram.get(m + d).copied().unwrap_or(0);
        let down = if d > 0 && d <= m { histogram[m - d] } else { 0 };
        up + down
    };
    let mad = quantile(&deviation, histogram.len());
    let at = median + OUTLIER_Z / 0.6745 * mad.max(MIN_MAD);
    let at = ((at * 100.0).ceil() / 100.0).min(1.0);
    let cluster = top_cluster(histogram);
    // The highest pair, and the lowest flagged for being near it.
    let top = histogram.iter().rposition(|&c| c > 0).unwrap_or(0) as f64 / 100.0;
    let near = (top - NEAR_TOP).max(LOWEST_CUT);
    let flag_from = cluster.map_or(near, |c| c.from.min(near)).min(at);
    Cut {
        at,
        median,
        mad,
        fixed: false,
        flag_from: (flag_from * 100.0).round() / 100.0,
        cluster,
    }
}

/// The pairs above the widest gap between two similarities present in
/// `histogram` (hundredths), the higher from [`LOWEST_CUT`] up (and the
/// lowest of them taken down to 0), when that gap is wider than
/// [`NEAR_TOP`]; of equal gaps, the lowest.
fn top_cluster(histogram: &[u64]) -> Option<Cluster> {
    let floor = (LOWEST_CUT * 100.0).round() as usize;
    let present: Vec<usize> = (0..histogram.len())
        .rev()
        .filter(|&i| histogram[i] > 0)
        .collect();
    let mut widest: Option<(usize, usize)> = None;
    for (k, &upper) in present.iter().enumerate() {
        if upper < floor {
            break;
        }
        let lower = present.get(k + 1).copied().unwrap_or(0);
        if widest.is_none_or(|(u, l)| upper - lower >= u - l) {
            widest = Some((upper, lower));
        }
    }
    let (upper, lower) = widest?;
    ((upper - lower) as f64 / 100.0 > NEAR_TOP + 1e-9).then(|| Cluster {
        from: upper as f64 / 100.0,
        next: lower as f64 / 100.0,
    })
}

/// A pair's similarity from the fingerprints they share and each one's:
/// the mean of the share of the one with fewer (containment: a copy padded
/// with dead code still has all of its source) and the share of the one
/// with more (so that a few fingerprints a small student happens to share
/// do not make them a copy). A whole copy scores 1; a student who copied one
/// of four equal parts of another and wrote nothing else, ⅝; 3 shared of a 10-fingerprint student's
/// with a 200-fingerprint one, 0.16.
pub fn score(shared: usize, a: usize, b: usize) -> f64 {
    let (small, large) = (a.min(b).max(1) as f64, a.max(b).max(1) as f64);
    let shared = shared as f64;
    ((shared / small).min(1.0) + (shared / large).min(1.0)) / 2.0
}

/// What every report says it ignores.
pub const IGNORES: &str = "Ignored: the names a student chose (every name they define is a \
placeholder that keeps only how it is used), the order of definitions, comments, layout and \
white space, the values of literals, imports, type signatures, the base code, and code that more \
than the share limit of students have. Rewritten to one shape first: one-line aliases (replaced by \
what they name), a helper's argument order, list comprehensions and map/filter/concatMap, guards, \
if and boolean case, where and let, $, . and parentheses, eta-reduced and full definitions.";

/// What every report says still hides a copy.
pub const BLIND_SPOTS: &str = "Not seen: a rewrite with other logic (another algorithm or \
another split into functions), shared runs shorter than k tokens, and files other than those \
compared (the part files and an own Helpers.hs, or the one file that defines createBoard). A score is evidence for a person to read, not a verdict.";

/// Where a similarity report came from, and with which settings.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Provenance {
    /// The grader's version.
    pub grader: String,
    /// How code is compared, in a few words.
    pub method: String,
    /// Tokens in a k-gram.
    pub k: usize,
    /// Winnowing's window.
    pub window: usize,
    /// Most students a fingerprint may be held by and still count.
    pub share_limit: usize,
    /// SHA-256 of the base files' names (without their folders) and texts.
    pub base: String,
    /// How many base files were given (the default `Helpers.hs` aside).
    pub base_files: usize,
    /// Distinct fingerprints of the base code, the default `Helpers.hs`'s included.
    pub base_fingerprints: usize,
    /// Distinct fingerprints ignored as common.
    pub common_fingerprints: usize,
    /// Students compared.
    pub students: usize,
    /// When (UTC, RFC 3339), unless left out for a reproducible report.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
}

impl Provenance {
    /// The provenance of `report`, made from `base` on `date`.
    pub fn new(report: &Report, base: &[SourceText], date: Option<String>) -> Provenance {
        let names: Vec<String> = base
            .iter()
            .map(|f| {
                Path::new(&f.name)
                    .file_name()
                    .map_or_else(|| f.name.clone(), |n| n.to_string_lossy().into_owned())
            })
            .collect();
        let digest = crate::model::provenance::digest(
            names
                .iter()
                .zip(base)
                .flat_map(|(name, f)| [name.as_bytes(), f.text.as_bytes()]),
        );
        Provenance {
            grader: crate::model::provenance::GRADER_VERSION.to_owned(),
            method:
                "Haskell tokens, own names as placeholders, definitions as a set, winnowed k-grams"
                    .to_owned(),
            k: report.options.k,
            window: report.options.window,
            share_limit: report.share_limit,
            base: format!("sha256:{digest}"),
            base_files: base.len(),
            base_fingerprints: report.base_fingerprints,
            common_fingerprints: report.common_fingerprints,
            students: report.students.len(),
            date,
        }
    }

    /// One line for the human report.
    pub fn line(&self) -> String {
        let mut parts = vec![
            format!("compared by cnf-grader {}", self.grader),
            format!("k {} · window {}", self.k, self.window),
            format!("share limit {} students", self.share_limit),
            format!(
                "base {} file{} sha256:{}",
                self.base_files,
                if self.base_files == 1 { "" } else { "s" },
                self.base
                    .trim_start_matches("sha256:")
                    .get(..12)
                    .unwrap_or("")
            ),
        ];
        if let Some(date) = &self.date {
            parts.push(date.clone());
        }
        parts.join(" · ")
    }

    /// The fields as (name, value) pairs, for HTML.
    pub fn fields(&self) -> Vec<(&'static str, String)> {
        let mut out = vec![
            ("grader", format!("cnf-grader {}", self.grader)),
            ("method", self.method.clone()),
            ("k", self.k.to_string()),
            ("window", self.window.to_string()),
            ("share limit", format!("{} students", self.share_limit)),
            ("base", format!("{} ({} files)", self.base, self.base_files)),
            ("base fingerprints", self.base_fingerprints.to_string()),
            ("common fingerprints", self.common_fingerprints.to_string()),
            ("students", self.students.to_string()),
        ];
        if let Some(date) = &self.date {
            out.push(("date", date.clone()));
        }
        out
    }
}

impl Student {
    /// The name of the definition of `region`, as written.
    pub fn definition(&self, region: &Region) -> &str {
        self.definitions
            .get(region.file)
            .and_then(|d| d.get(region.definition))
            .map_or("", String::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A histogram of `pairs` (similarity in hundredths, count).
    fn histogram(pairs: &[(usize, u64)]) -> Vec<u64> {
        let mut h = vec![0; 101];
        for &(at, n) in pairs {
            h[at] += n;
        }
        h
    }

    #[test]
    fn the_lowest_cut_is_that_of_a_class_sharing_nothing() {
        let cut = cut(&histogram(&[(0, 45)]));
        assert_eq!(cut.at, LOWEST_CUT);
        assert_eq!(cut.cluster, None);
    }

    #[test]
    fn a_class_that_mostly_copied_flags_its_top_cluster_below_the_cut() {
        // 15 pairs of copies from 0.89 to 1.00, 13 others at 0.07 or less.
        let h = histogram(&[(100, 6), (99, 4), (90, 4), (89, 1), (7, 7), (4, 5), (0, 1)]);
        let cut = cut(&h);
        assert_eq!(cut.at, 1.0);
        assert_eq!(
            cut.cluster,
            Some(Cluster {
                from: 0.89,
                next: 0.07
            })
        );
        assert_eq!(cut.flag_from, 0.89);
    }

    #[test]
    fn a_continuum_has_no_cluster_and_flags_only_near_the_top() {
        // Pairs every 0.03 from 0.39 down to 0: a template not given as base.
        let pairs: Vec<(usize, u64)> = (0..=39).step_by(3).map(|i| (i, 1)).collect();
        let cut = cut_of(&pairs);
        assert_eq!(cut.cluster, None);
        assert_eq!(cut.flag_from, 0.34, "{cut:?}");
        // And an honest class's few sharing pairs, all below the lowest cut,
        // flag nothing.
        let cut = cut_of(&[(9, 1), (5, 2), (0, 40)]);
        assert_eq!(cut.flag_from, LOWEST_CUT);
    }

    fn cut_of(pairs: &[(usize, u64)]) -> Cut {
        cut(&histogram(pairs))
    }
}
