//! Scoring a class: fingerprints per student, the base and common code
//! removed, an inverted index from fingerprint to students, and only the
//! pairs that share a fingerprint scored.
//!
//! Cost: each student is normalised and fingerprinted once (in parallel);
//! a pair is counted once per fingerprint the two share, and a fingerprint
//! is held by at most the share limit of students, so the work grows with
//! the class, not with its square, unless the class really is full of
//! shared code. Memory is the students' texts and fingerprints, one
//! counter per student per thread, and the pairs kept: each student's
//! [`Options::closest`] pairs, never every pair that shares a k-gram.

use std::collections::{HashMap, HashSet};

use rayon::prelude::*;

use super::StudentSource;
use super::fingerprint::{kgram_hashes, winnow};
use super::normalise::lex;
use crate::model::similarity::{
    Match, Options, Pair, Region, Report, SourceText, Student, cut, score,
};

/// One fingerprint of a student and where it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Print {
    hash: u64,
    file: u32,
    definition: u32,
    /// The index of the k-gram's first token in the definition.
    start: u32,
}

/// A student fingerprinted.
struct Printed {
    /// Every fingerprint kept, sorted by hash (then place).
    prints: Vec<Print>,
    /// The distinct hashes kept, sorted.
    set: Vec<u64>,
    /// The name of each definition of each file.
    names: Vec<Vec<String>>,
    /// The name of each file.
    files: Vec<String>,
    /// The line of each normalised token of each definition of each file.
    lines: Vec<Vec<Vec<u32>>>,
    /// Every k-gram's hash (winnowed or not) of each definition of each
    /// file, to find every line two matching definitions share.
    kgrams: Vec<Vec<Vec<u64>>>,
}

/// Every fingerprint, then per file and definition: names, token lines,
/// k-gram hashes.
type Fingerprinted = (
    Vec<Print>,
    Vec<Vec<String>>,
    Vec<Vec<Vec<u32>>>,
    Vec<Vec<Vec<u64>>>,
);

/// The fingerprints of files that belong to one author (one student, or
/// one base file): the top-level names of all of them are that author's.
fn fingerprint_files(files: &[&str], options: &Options) -> Fingerprinted {
    let lexed: Vec<_> = files.iter().map(|text| lex(text)).collect();
    let own: HashSet<&str> = lexed.iter().flat_map(|l| l.top_level_names()).collect();
    let definitions: Vec<_> = lexed.iter().flat_map(|l| l.shape_input()).collect();
    let shape = super::shape::shape(&definitions);
    let mut prints = Vec::new();
    let mut names = Vec::new();
    let mut lines = Vec::new();
    let mut kgrams = Vec::new();
    for (file, lexed) in lexed.iter().enumerate() {
        let definitions = lexed.definitions(&own, &shape);
        names.push(definitions.iter().map(|d| d.name.clone()).collect());
        let mut hashes = Vec::with_capacity(definitions.len());
        for (definition, d) in definitions.iter().enumerate() {
            let all = kgram_hashes(&d.codes, options.k);
            for f in winnow(&all, options.window) {
                prints.push(Print {
                    hash: f.hash,
                    file: file as u32,
                    definition: definition as u32,
                    start: f.start,
                });
            }
            hashes.push(all);
        }
        lines.push(definitions.into_iter().map(|d| d.token_lines).collect());
        kgrams.push(hashes);
    }
    (prints, names, lines, kgrams)
}

/// The distinct fingerprints (hashes, sorted) of one student's files,
/// before base and common code are removed.
pub fn fingerprint_set(files: &[&str], options: &Options) -> Vec<u64> {
    let mut set: Vec<u64> = fingerprint_files(files, options)
        .0
        .into_iter()
        .map(|p| p.hash)
        .collect();
    set.sort_unstable();
    set.dedup();
    set
}

/// The distinct hashes of the base code: every base file's, and the
/// course's default `Helpers.hs`.
fn base_hashes(base: &[SourceText], options: &Options) -> HashSet<u64> {
    let texts: Vec<&str> = base
        .iter()
        .map(|f| f.text.as_str())
        .chain([crate::submission::DEFAULT_HELPERS])
        .collect();
    texts
        .par_iter()
        .flat_map_iter(|text| {
            fingerprint_files(&[text], options)
                .0
                .into_iter()
                .map(|p| p.hash)
        })
        .collect()
}

/// Compares every student of `students` with every other through the
/// inverted index, `base` removed; see the module's documentation.
pub fn compare(students: &[StudentSource], base: &[SourceText], options: &Options) -> Report {
    let base = base_hashes(base, options);
    let mut printed: Vec<Printed> = students
        .par_iter()
        .map(|s| {
            let texts: Vec<&str> = s.files.iter().map(|f| f.text.as_str()).collect();
            let (mut prints, names, lines, kgrams) = fingerprint_files(&texts, options);
            prints.retain(|p| !base.contains(&p.hash));
            prints.sort_unstable();
            let mut set: Vec<u64> = prints.iter().map(|p| p.hash).collect();
            set.dedup();
            let files = s.files.iter().map(|f| f.name.clone()).collect();
            Printed {
                prints,
                set,
                names,
                files,
                lines,
                kgrams,
            }
        })
        .collect();
    // How many students hold each fingerprint; the common ones go.
    let mut held: HashMap<u64, u32> = HashMap::new();
    for p in &printed {
        for &h in &p.set {
            *held.entry(h).or_default() += 1;
        }
    }
    let limit = options.share_limit(students.len());
    let common: HashSet<u64> = held
        .iter()
        .filter(|&(_, &n)| n as usize > limit)
        .map(|(&h, _)| h)
        .collect();
    if !common.is_empty() {
        printed.par_iter_mut().for_each(|p| {
            p.set.retain(|h| !common.contains(h));
            p.prints.retain(|x| !common.contains(&x.hash));
        });
    }
    // The inverted index: fingerprint → the students holding it (in
    // order), for fingerprints two students or more hold.
    let mut postings: HashMap<u64, Vec<u32>> = HashMap::new();
    for (i, p) in printed.iter().enumerate() {
        for &h in &p.set {
            if held.get(&h).is_some_and(|&n| n >= 2) && !common.contains(&h) {
                postings.entry(h).or_default().push(i as u32);
            }
        }
    }
    let n = students.len();
    // Each student's neighbours, counted over the whole index: their
    // closest pairs are kept, so the pairs kept grow with the class, not
    // its square; every sharing pair is counted in a histogram of
    // similarities (in hundredths) for the cut.
    let counted = (0..n)
        .into_par_iter()
        .fold(
            || (vec![0u32; n], Vec::new(), Vec::new(), vec![0u64; 101]),
            |(mut counts, mut touched, mut kept, mut histogram), a| {
                for h in &printed[a].set {
                    let Some(list) = postings.get(h) else {
                        continue;
                    };
                    for &b in list {
                        let b = b as usize;
                        if b == a {
                            continue;
                        }
                        if counts[b] == 0 {
                            touched.push(b);
                        }
                        counts[b] += 1;
                    }
                }
                let mut found: Vec<Pair> = touched
                    .iter()
                    .map(|&b| {
                        let shared = counts[b] as usize;
                        counts[b] = 0;
                        let similarity = score(shared, printed[a].set.len(), printed[b].set.len());
                        if b > a {
                            histogram[(similarity * 100.0).round() as usize] += 1;
                        }
                        Pair {
                            a: a.min(b),
                            b: a.max(b),
                            shared,
                            similarity,
                            matches: None,
                        }
                    })
                    .collect();
                touched.clear();
                found.sort_by(order);
                found.truncate(options.closest);
                kept.extend(found);
                (counts, touched, kept, histogram)
            },
        )
        .map(|(_, _, kept, histogram)| (kept, histogram))
        .reduce(
            || (Vec::new(), vec![0u64; 101]),
            |(mut kept, mut histogram), (more, other)| {
                kept.extend(more);
                for (h, o) in histogram.iter_mut().zip(other) {
                    *h += o;
                }
                (kept, histogram)
            },
        );
    let (mut pairs, mut histogram) = counted;
    let sharing = histogram.iter().sum::<u64>() as usize;
    // The distribution is over every pair: those sharing nothing score 0.
    let all_pairs = (n as u64) * (n as u64).saturating_sub(1) / 2;
    histogram[0] += all_pairs.saturating_sub(sharing as u64);
    let mut cut = cut(&histogram);
    if let Some(at) = options.threshold {
        cut.at = at;
        cut.fixed = true;
        cut.flag_from = at;
        cut.cluster = None;
    }
    let from = |level: f64| -> usize {
        histogram
            .iter()
            .skip(1)
            .enumerate()
            .filter(|&(i, _)| (i + 1) as f64 / 100.0 >= level - 1e-9)
            .map(|(_, &c)| c as usize)
            .sum()
    };
    let above_cut = from(cut.at);
    let flagged = from(cut.flag_from);
    pairs.sort_by(order);
    pairs.dedup_by(|x, y| (x.a, x.b) == (y.a, y.b));
    pairs
        .par_iter_mut()
        .take(options.evidence)
        .for_each(|pair| {
            pair.matches = Some(matches(
                &printed[pair.a],
                &printed[pair.b],
                options.k,
                &base,
            ));
        });
    let students = students
        .iter()
        .zip(printed)
        .map(|(s, p)| Student {
            name: s.name.clone(),
            files: s.files.clone(),
            fingerprints: p.set.len(),
            definitions: p.names,
            notes: s.notes.clone(),
        })
        .collect();
    Report {
        students,
        pairs,
        sharing,
        cut,
        above_cut,
        flagged,
        options: options.clone(),
        share_limit: limit,
        base_fingerprints: base.len(),
        common_fingerprints: common.len(),
    }
}

/// Highest similarity first, then most shared, then by students.
fn order(x: &Pair, y: &Pair) -> std::cmp::Ordering {
    y.similarity
        .total_cmp(&x.similarity)
        .then(y.shared.cmp(&x.shared))
        .then((x.a, x.b).cmp(&(y.a, y.b)))
}

/// Most places of one fingerprint in one student looked at for matches
/// (a helper pasted into every part file is there four times).
const PLACES: usize = 8;

/// The matching definitions of two students: for each pair of definitions
/// that share fingerprints, how many and the lines of those k-grams; then,
/// from the pair sharing most down, each pair kept when one of its two
/// definitions is not matched yet (a definition copied into each of four
/// part files matches its copy in the same file, not all four).
fn matches(a: &Printed, b: &Printed, k: usize, base: &HashSet<u64>) -> Vec<Match> {
    // (file, definition) of a, then of b.
    type Key = (u32, u32, u32, u32);
    // How many fingerprints.
    type Found = usize;
    let mut found: HashMap<Key, Found> = HashMap::new();
    let (mut i, mut j) = (0, 0);
    while i < a.prints.len() && j < b.prints.len() {
        let (ha, hb) = (a.prints[i].hash, b.prints[j].hash);
        if ha < hb {
            i += 1;
            continue;
        }
        if hb < ha {
            j += 1;
            continue;
        }
        let ia = a.prints[i..].partition_point(|p| p.hash == ha) + i;
        let jb = b.prints[j..].partition_point(|p| p.hash == hb) + j;
        for pa in a.prints[i..ia].iter().take(PLACES) {
            for pb in b.prints[j..jb].iter().take(PLACES) {
                let key = (pa.file, pa.definition, pb.file, pb.definition);
                *found.entry(key).or_default() += 1;
            }
        }
        (i, j) = (ia, jb);
    }
    let mut candidates: Vec<(Key, Found)> = found.into_iter().collect();
    // Most shared first; then a match within the same file name, then by place.
    candidates.sort_by_key(|((fa, da, fb, db), n)| {
        let other_file = a.files[*fa as usize] != b.files[*fb as usize];
        (std::cmp::Reverse(*n), other_file, *fa, *da, *fb, *db)
    });
    let mut used_a = HashSet::new();
    let mut used_b = HashSet::new();
    let mut out = Vec::new();
    let region = |file: u32, definition: u32, mut lines: Vec<u32>| {
        lines.sort_unstable();
        lines.dedup();
        Region {
            file: file as usize,
            definition: definition as usize,
            lines: (
                lines.first().copied().unwrap_or(0),
                lines.last().copied().unwrap_or(0),
            ),
            matched: lines,
        }
    };
    for ((fa, da, fb, db), shared) in candidates {
        let fresh_a = used_a.insert((fa, da));
        let fresh_b = used_b.insert((fb, db));
        if !(fresh_a || fresh_b) {
            continue;
        }
        let ka = &a.kgrams[fa as usize][da as usize];
        let kb = &b.kgrams[fb as usize][db as usize];
        let la = shared_lines(ka, kb, &a.lines[fa as usize][da as usize], k, base);
        let lb = shared_lines(kb, ka, &b.lines[fb as usize][db as usize], k, base);
        out.push(Match {
            a: region(fa, da, la),
            b: region(fb, db, lb),
            shared,
        });
    }
    out.sort_by_key(|m| (m.a.file, m.a.lines, m.b.file, m.b.lines));
    out
}

/// The lines of the tokens of `mine` (a definition's k-gram hashes, its
/// token lines `lines`) covered by a k-gram `theirs` has too, base code
/// aside: every run the two definitions share, not only the winnowed ones.
fn shared_lines(
    mine: &[u64],
    theirs: &[u64],
    lines: &[u32],
    k: usize,
    base: &HashSet<u64>,
) -> Vec<u32> {
    let theirs: HashSet<u64> = theirs.iter().copied().collect();
    let mut covered = vec![false; lines.len()];
    for (i, h) in mine.iter().enumerate() {
        if theirs.contains(h) && !base.contains(h) {
            for c in covered.iter_mut().skip(i).take(k) {
                *c = true;
            }
        }
    }
    lines
        .iter()
        .zip(covered)
        .filter(|(_, c)| *c)
        .map(|(l, _)| *l)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Definitions with placeholders for the names a student chooses
    /// (`@A`…`@F` their functions, `@x`…`@q` their variables).
    const DEFINITIONS: [&str; 6] = [
        "@A :: [String] -> Int -> [String]\n@A @x @y = take (@y - 1) @x ++ drop @y @x ++ [show (length @x)]",
        "@B :: Int -> Char\n@B @x\n  | @x > 9 = toEnum (@x + 87)\n  | otherwise = toEnum (@x + 48)",
        "@C @x = or [ length (@A @x @y) == @y * 2 | @y <- [1 .. length @x], odd @y ]",
        "@D @x = case @x of\n  [] -> 0\n  (@y : @z) -> @y + @D @z * 10 - maximum (0 : @z)",
        "@E @x = let @y = map @B @x in foldr (\\@z @w -> @z : '-' : @w) [] @y ++ \"end\"",
        "@F @x @y = [ (@z, @w) | (@z, @w) <- zip @x @y, @z /= @w, @z > @q ]\n  where\n    @q = 3 + length @x",
    ];

    const MARKERS: [&str; 11] = ["A", "B", "C", "D", "E", "F", "x", "y", "z", "w", "q"];

    /// The program of `DEFINITIONS` in `order`, names from `names`, each
    /// indentation multiplied by `indent`, with comments or not.
    fn program(order: &[usize], names: &[String], indent: usize, comments: bool) -> String {
        let mut out = String::new();
        for &d in order {
            let mut text = DEFINITIONS[d].to_owned();
            for (marker, name) in MARKERS.iter().zip(names) {
                text = text.replace(&format!("@{marker}"), name);
            }
            if comments {
                out.push_str("{- a {- nested -} comment -}\n-- and a line\n");
            }
            for line in text.lines() {
                let spaces = line.len() - line.trim_start().len();
                out.push_str(&" ".repeat(spaces * indent));
                out.push_str(line.trim_start());
                if comments {
                    out.push_str(" -- why");
                }
                out.push('\n');
            }
            out.push('\n');
        }
        out
    }

    fn plain_names() -> Vec<String> {
        MARKERS.iter().map(|m| format!("n{m}")).collect()
    }

    proptest! {
        #[test]
        fn renaming_reordering_reindenting_and_commenting_change_no_fingerprint(
            prefixes in proptest::collection::vec("[a-z]{1,6}", MARKERS.len()),
            order in Just((0..DEFINITIONS.len()).collect::<Vec<usize>>()).prop_shuffle(),
            indent in 1usize..4,
            comments in any::<bool>(),
        ) {
            let options = Options { k: 8, window: 4, ..Options::default() };
            let original = program(&(0..DEFINITIONS.len()).collect::<Vec<_>>(), &plain_names(), 1, false);
            // Distinct, and never a keyword or a library name.
            let names: Vec<String> = prefixes.iter().enumerate().map(|(i, p)| format!("{p}{i}x")).collect();
            let changed = program(&order, &names, indent, comments);
            let before = fingerprint_set(&[&original], &options);
            prop_assert!(before.len() > 10);
            prop_assert_eq!(before, fingerprint_set(&[&changed], &options));
        }

        #[test]
        fn a_renaming_alone_changes_no_fingerprint_with_the_defaults(
            prefixes in proptest::collection::vec("[a-z]{1,6}", MARKERS.len()),
        ) {
            let order: Vec<usize> = (0..DEFINITIONS.len()).collect();
            let names: Vec<String> = prefixes.iter().enumerate().map(|(i, p)| format!("{p}{i}x")).collect();
            let options = Options::default();
            prop_assert_eq!(
                fingerprint_set(&[&program(&order, &plain_names(), 1, false)], &options),
                fingerprint_set(&[&program(&order, &names, 1, false)], &options)
            );
        }
    }

    /// Definitions in two shapes each, the same meaning: `.0` as written
    /// by one student, `.1` by a copier's rewrite (named after it).
    const REWRITES: [(&str, &str, &str); 8] = [
        (
            "guards to if",
            "@A @x @y\n  | @x > @y = @x - @y\n  | @x == 0 = length (show @y)\n  | otherwise = @y * 2 + @x",
            "@A @x @y = if @x > @y then @x - @y else if @x == 0 then length (show @y) else @y * 2 + @x",
        ),
        (
            "where to let",
            "@B @x = @y + @z * 2\n  where\n    @y = sum (map abs @x)\n    @z = length (filter even @x)",
            "@B @x =\n  let @z = length (filter even @x)\n      @y = sum (map abs @x)\n   in @y + @z * 2",
        ),
        (
            "comprehension to map and filter",
            "@C @x = sum [ @y * 3 + 1 | @y <- @x, odd @y, @y > 2 ] + length @x",
            "@C @x = sum (map (\\@y -> @y * 3 + 1) (filter (\\@y -> odd @y && @y > 2) @x)) + length @x",
        ),
        (
            "parentheses to $ and .",
            "@D @x = show (length (filter (> 3) (map abs @x))) ++ \"!\"",
            "@D @x = (show . length . filter (> 3) $ map abs @x) ++ \"!\"",
        ),
        (
            "eta-reduction",
            "@E @x = reverse (concatMap (replicate 2) (take 10 (drop 1 @x)))",
            "@E = reverse . concatMap (replicate 2) . take 10 . drop 1",
        ),
        (
            "aliases",
            "@F @x = map negate (filter (/= 0) (zipWith (-) @x (tail @x)))",
            "@G @f @q = map @f @q\n@H = filter\n@F @x = @G negate (@H (/= 0) (zipWith (-) @x (tail @x)))",
        ),
        (
            "arguments swapped",
            "@I @x @y @z = take @y (drop @z @x) ++ [@z + @y]\n@J @w = @I @w 2 (length @w) ++ @w",
            "@I @z @x @y = take @y (drop @z @x) ++ [@z + @y]\n@J @w = @I (length @w) @w 2 ++ @w",
        ),
        (
            "boolean case to if",
            "@K @x = case null @x of\n  True -> 0\n  False -> head @x * 2 + last @x",
            "@K @x = if null @x then 0 else head @x * 2 + last @x",
        ),
    ];

    const SHAPE_MARKERS: [&str; 17] = [
        "A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "f", "q", "w", "x", "y", "z",
    ];

    /// The program of `REWRITES`, rewritten where `rewritten` says so, in
    /// `order`, names from `names`.
    fn shaped(rewritten: &[bool], order: &[usize], names: &[String]) -> String {
        let mut out = String::new();
        for &d in order {
            let (_, plain, rewrite) = REWRITES[d];
            let mut text = if rewritten[d] { rewrite } else { plain }.to_owned();
            for (marker, name) in SHAPE_MARKERS.iter().zip(names) {
                text = text.replace(&format!("@{marker}"), name);
            }
            out.push_str(&text);
            out.push_str("\n\n");
        }
        out
    }

    proptest! {
        #[test]
        fn each_shape_rewrite_and_any_combination_changes_no_fingerprint(
            rewritten in proptest::collection::vec(any::<bool>(), REWRITES.len()),
            order in Just((0..REWRITES.len()).collect::<Vec<usize>>()).prop_shuffle(),
            prefixes in proptest::collection::vec("[a-z]{1,6}", SHAPE_MARKERS.len()),
        ) {
            let options = Options { k: 8, window: 4, ..Options::default() };
            let plain_names: Vec<String> = SHAPE_MARKERS.iter().map(|m| format!("n{m}")).collect();
            let names: Vec<String> = prefixes.iter().enumerate().map(|(i, p)| format!("{p}{i}x")).collect();
            let all: Vec<usize> = (0..REWRITES.len()).collect();
            let original = shaped(&[false; REWRITES.len()], &all, &plain_names);
            let changed = shaped(&rewritten, &order, &names);
            let before = fingerprint_set(&[&original], &options);
            prop_assert!(before.len() > 10);
            prop_assert_eq!(before, fingerprint_set(&[&changed], &options), "{}", changed);
        }
    }

    #[test]
    fn each_shape_rewrite_alone_changes_no_fingerprint_of_its_definition() {
        let options = Options {
            k: 8,
            window: 4,
            ..Options::default()
        };
        let names: Vec<String> = SHAPE_MARKERS.iter().map(|m| format!("n{m}")).collect();
        for (d, (what, _, _)) in REWRITES.iter().enumerate() {
            let mut rewritten = [false; REWRITES.len()];
            rewritten[d] = true;
            let plain = shaped(&[false; REWRITES.len()], &[d], &names);
            let changed = shaped(&rewritten, &[d], &names);
            let before = fingerprint_set(&[&plain], &options);
            assert!(!before.is_empty(), "{what}: no fingerprint");
            assert_eq!(before, fingerprint_set(&[&changed], &options), "{what}");
        }
    }

    #[test]
    fn a_changed_structure_changes_fingerprints() {
        // The same tokens with another binding structure: not the same code.
        let options = Options {
            k: 8,
            window: 4,
            ..Options::default()
        };
        let a = fingerprint_set(
            &["f x y = take (y - 1) x ++ drop y x ++ [show (length x)]\n"],
            &options,
        );
        let b = fingerprint_set(
            &["f x y = take (x - 1) y ++ drop y x ++ [show (length x)]\n"],
            &options,
        );
        assert_ne!(a, b);
    }

    #[test]
    fn base_and_common_code_are_removed_and_pairs_scored_by_both_sizes() {
        let student = |name: &str, files: &[&str]| StudentSource {
            name: name.to_owned(),
            files: files
                .iter()
                .enumerate()
                .map(|(i, t)| SourceText {
                    name: format!("f{i}.hs"),
                    text: (*t).to_owned(),
                })
                .collect(),
            notes: Vec::new(),
        };
        let given = "main = do\n  args <- getArgs\n  text <- readFile (head args)\n  print (length (lines text))\n";
        let own = "g xs = [ (x, y) | x <- xs, y <- reverse xs, x /= y, even (x + y) ]\n";
        let padding = "h n = sum [ k * k | k <- [1 .. n], odd k ] + product [1 .. n] - n\n";
        let students = [
            student("a", &[given, own]),
            student("b", &[given, own, padding]),
            student("c", &[given]),
        ];
        let base = [SourceText {
            name: "t.hs".to_owned(),
            text: given.to_owned(),
        }];
        let report = compare(&students, &base, &Options::default());
        // c holds only base code; a and b share all of a's.
        assert_eq!(report.students[2].fingerprints, 0);
        assert_eq!(report.pairs.len(), 1);
        let pair = &report.pairs[0];
        let (fa, fb) = (
            report.students[0].fingerprints,
            report.students[1].fingerprints,
        );
        assert!(fb > fa);
        // All of a's are shared: the mean of 1 and a's share of b's.
        assert_eq!((pair.a, pair.b, pair.shared), (0, 1, fa));
        assert!((pair.similarity - (1.0 + fa as f64 / fb as f64) / 2.0).abs() < 1e-12);
        let matches = pair.matches.as_ref().expect("evidence looked for");
        assert_eq!(matches.len(), 1);
        let m = &matches[0];
        assert_eq!(report.students[0].definition(&m.a), "g");
        assert_eq!(report.students[1].definition(&m.b), "g");
        assert_eq!((m.a.file, m.b.file), (1, 1));
        // With no evidence asked for, none is looked for.
        let none = Options {
            evidence: 0,
            ..Options::default()
        };
        assert!(compare(&students, &base, &none).pairs[0].matches.is_none());
        // Without the base, the template is shared by all three; with a
        // share limit of 2 it is common code again.
        let report = compare(&students, &[], &Options::default());
        assert_eq!(report.pairs.len(), 3);
        let limited = Options {
            max_share: Some(2),
            ..Options::default()
        };
        let report = compare(&students, &[], &limited);
        assert_eq!(report.pairs.len(), 1);
        assert!(report.common_fingerprints > 0);
    }
}
