//! Rewrites that bring a definition to one shape, whichever of several
//! equivalent shapes the student wrote, before its tokens are coded.
//!
//! All of them work on tokens and layout, not on a syntax tree: students'
//! files are often incomplete or do not compile, and a copier's rewrites
//! are local ones. What each does (`→` reads "is coded as"):
//!
//! - **aliases**: a top-level definition whose body, once eta-reduced, is
//!   only a name applied to names or literals (`each f xs = map f xs`,
//!   `keep = filter`, `addAll = foldr (+) 0`) is replaced, wherever the
//!   student uses it, by what it names, and gives no fingerprint itself;
//! - **argument order**: a top-level function of two or more parameters
//!   takes them in the order its body first uses them, and every full call
//!   of it (the name followed by as many atoms) is permuted the same way;
//! - **comprehensions**: `[e | p <- xs, g]` → `map (\p -> e) (filter (\p
//!   -> g) xs)`, a further generator → `concatMap`, `[p | p <- xs, g]` →
//!   `filter (\p -> g) xs`;
//! - **lambdas and definitions are eta-reduced**: `\x -> f (g x)` → `f g`
//!   once grouping is dropped (below), the same as `f . g`; `f xs = g xs`
//!   → `f = g`;
//! - **conditionals**: guards, `if … then … else` (and `else if`), `case b
//!   of True -> …; False -> …` and `case () of _ | …` are one chain of
//!   condition / then / else marks, `otherwise` an else;
//! - **local bindings**: `where` and `let … in` bindings each become a
//!   block of their own, sorted after the expression, so where they were
//!   written and in which order does not matter;
//! - **grouping**: parentheses, `$` and `.` are dropped, so `f (g x)`, `f
//!   $ g x` and `(f . g) x` read the same; type signatures are left out.

use std::collections::HashMap;

use haskell_text::source::{Kind, Token};

/// What a student's top-level definitions say about all their code: the
/// aliases and the argument order of each function.
#[derive(Debug, Default)]
pub struct Shape<'a> {
    /// Alias → the tokens it stands for.
    pub aliases: HashMap<&'a str, Vec<Token<'a>>>,
    /// Function → its parameters' canonical order (original positions).
    pub orders: HashMap<&'a str, Vec<usize>>,
}

/// Whether `t` is the reserved operator, keyword or special `text`.
pub(crate) fn is(t: &Token<'_>, text: &str) -> bool {
    matches!(t.kind, Kind::ReservedOp | Kind::Keyword | Kind::Special) && t.text == text
}

fn opens(t: &Token<'_>) -> bool {
    t.kind == Kind::Special && matches!(t.text, "(" | "[" | "{")
}

fn closes(t: &Token<'_>) -> bool {
    t.kind == Kind::Special && matches!(t.text, ")" | "]" | "}")
}

/// Grouping dropped from the codes: brackets of application, `$` and `.`.
pub(crate) fn is_grouping(t: &Token<'_>) -> bool {
    (t.kind == Kind::Special && matches!(t.text, "(" | ")" | ";" | "{" | "}"))
        || (t.kind == Kind::VarSym && !t.qualified && matches!(t.text, "$" | "."))
}

/// The index just past the bracket group opened at `i` (or `i + 1`).
fn group_end(toks: &[Token<'_>], i: usize) -> usize {
    if !opens(&toks[i]) {
        return i + 1;
    }
    let mut depth = 0;
    for (j, t) in toks.iter().enumerate().skip(i) {
        if opens(t) {
            depth += 1;
        } else if closes(t) {
            depth -= 1;
            if depth == 0 {
                return j + 1;
            }
        }
    }
    toks.len()
}

/// For each token, the index just past its bracket group when it opens
/// one (`toks.len()` when unclosed), else its own index plus one: every
/// group's end in one pass.
fn group_ends(toks: &[Token<'_>]) -> Vec<usize> {
    let mut ends: Vec<usize> = (1..=toks.len()).collect();
    let mut open: Vec<usize> = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        if opens(t) {
            open.push(i);
            ends[i] = toks.len();
        } else if closes(t)
            && let Some(o) = open.pop()
        {
            ends[o] = i + 1;
        }
    }
    ends
}

/// For each `[`, whether a `|` is directly inside it (a comprehension).
fn bars(toks: &[Token<'_>]) -> Vec<bool> {
    let mut out = vec![false; toks.len()];
    let mut open: Vec<usize> = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        if opens(t) {
            open.push(i);
        } else if closes(t) {
            open.pop();
        } else if is(t, "|")
            && let Some(&o) = open.last()
            && toks[o].text == "["
        {
            out[o] = true;
        }
    }
    out
}

/// An atom starting at `i`: a name, a literal or a bracket group; its end
/// (`ends` from [`group_ends`]).
fn atom_in(toks: &[Token<'_>], ends: &[usize], i: usize) -> Option<usize> {
    let t = toks.get(i)?;
    match t.kind {
        Kind::Special if matches!(t.text, "(" | "[") => ends.get(i).copied(),
        _ => atom(toks, i),
    }
}

/// An atom starting at `i`: a name, a literal or a bracket group; its end.
fn atom(toks: &[Token<'_>], i: usize) -> Option<usize> {
    let t = toks.get(i)?;
    match t.kind {
        Kind::Var | Kind::Con | Kind::Integer | Kind::Float | Kind::Char | Kind::String => {
            Some(i + 1)
        }
        Kind::Special if matches!(t.text, "(" | "[") => Some(group_end(toks, i)),
        Kind::Keyword if t.text == "_" => Some(i + 1),
        _ => None,
    }
}

/// The left-hand side of an equation: the defined name (prefix form) and
/// its parameters as token ranges, and where `=` or the first guard is.
fn prefix_lhs(toks: &[Token<'_>]) -> Option<(usize, Vec<std::ops::Range<usize>>)> {
    let first = toks.first()?;
    if first.kind != Kind::Var || first.qualified {
        return None;
    }
    let mut params = Vec::new();
    let mut i = 1;
    loop {
        let t = toks.get(i)?;
        if is(t, "=") || is(t, "|") {
            return Some((i, params));
        }
        let end = atom(toks, i)?;
        params.push(i..end);
        i = end;
    }
}

/// A plain variable parameter's name.
fn plain<'a>(toks: &[Token<'a>], r: &std::ops::Range<usize>) -> Option<&'a str> {
    (r.len() == 1 && toks[r.start].kind == Kind::Var).then(|| toks[r.start].text)
}

/// The last token of `body` that is not grouping, and its index.
fn last_meaningful(body: &[Token<'_>]) -> Option<usize> {
    body.iter().rposition(|t| !is_grouping(t))
}

/// Eta-reduces `body` by the parameter `name` when it is the body's last
/// application argument, used nowhere else: removes it and returns true.
fn eta(body: &mut Vec<Token<'_>>, name: &str) -> bool {
    let Some(last) = last_meaningful(body) else {
        return false;
    };
    if body[last].kind != Kind::Var || body[last].text != name {
        return false;
    }
    if body
        .iter()
        .filter(|t| t.kind == Kind::Var && t.text == name)
        .count()
        != 1
    {
        return false;
    }
    // Applied to something: the token before (grouping aside) is a name,
    // a literal or a list.
    let before = body[..last].iter().rposition(|t| !is_grouping(t));
    let applied = before.is_some_and(|b| {
        let t = &body[b];
        matches!(
            t.kind,
            Kind::Var | Kind::Con | Kind::Integer | Kind::Float | Kind::Char | Kind::String
        ) || (t.kind == Kind::Special && t.text == "]")
    });
    if !applied {
        return false;
    }
    body.remove(last);
    true
}

/// The declarations of one top-level name, split in equations (signatures
/// left out).
fn equations<'a, 'b>(decls: &'b [&'b [Token<'a>]]) -> Vec<&'b [Token<'a>]> {
    decls
        .iter()
        .copied()
        .filter(|d| {
            let mut depth = 0;
            for t in d.iter() {
                if depth == 0 && (is(t, "=") || is(t, "|")) {
                    return true;
                }
                if depth == 0 && is(t, "::") {
                    return false;
                }
                if opens(t) {
                    depth += 1;
                } else if closes(t) {
                    depth -= 1;
                }
            }
            true
        })
        .collect()
}

/// Reads the student's top-level definitions (each a list of its
/// declarations' tokens) for aliases and argument orders.
pub fn shape<'a>(definitions: &[(&'a str, Vec<&[Token<'a>]>)]) -> Shape<'a> {
    let mut shape = Shape::default();
    for (name, decls) in definitions {
        let eqs = equations(decls);
        let Some(first) = eqs.first() else { continue };
        let Some((eq, params)) = prefix_lhs(first) else {
            continue;
        };
        if eqs.len() == 1 && is(&first[eq], "=") {
            let mut body: Vec<Token<'a>> = first[eq + 1..].to_vec();
            let has_local = body.iter().any(|t| is(t, "where") || is(t, "let"));
            let mut left = params.len();
            let names: Vec<Option<&str>> = params.iter().map(|r| plain(first, r)).collect();
            while left > 0 {
                match names[left - 1] {
                    Some(p) if eta(&mut body, p) => left -= 1,
                    _ => break,
                }
            }
            let core: Vec<&Token<'a>> = body.iter().filter(|t| !is_grouping(t)).collect();
            let simple = core.iter().enumerate().all(|(i, t)| match t.kind {
                Kind::Var | Kind::Con => t.text != *name,
                Kind::VarSym | Kind::ConSym => i > 0,
                Kind::Integer | Kind::Float | Kind::Char | Kind::String => i > 0,
                _ => false,
            });
            if left == 0
                && !has_local
                && !core.is_empty()
                && core.len() <= 6
                && simple
                && matches!(core[0].kind, Kind::Var | Kind::Con | Kind::VarSym)
            {
                shape.aliases.insert(name, body);
                continue;
            }
        }
        // Argument order: by first use in the first equation's body, for
        // functions whose equations all take the same number.
        if params.len() < 2
            || eqs
                .iter()
                .any(|e| prefix_lhs(e).is_none_or(|(_, p)| p.len() != params.len()))
        {
            continue;
        }
        let body = &first[eq..];
        let mut keyed: Vec<(usize, usize)> = params
            .iter()
            .enumerate()
            .map(|(n, r)| {
                let vars: Vec<&str> = first[r.clone()]
                    .iter()
                    .filter(|t| t.kind == Kind::Var)
                    .map(|t| t.text)
                    .collect();
                let used = body
                    .iter()
                    .position(|t| t.kind == Kind::Var && vars.contains(&t.text))
                    .unwrap_or(usize::MAX / 2 + n);
                (used, n)
            })
            .collect();
        keyed.sort_unstable();
        let order: Vec<usize> = keyed.into_iter().map(|(_, n)| n).collect();
        if order.iter().enumerate().any(|(i, &n)| i != n) {
            shape.orders.insert(name, order);
        }
    }
    // An alias of an alias names what that one names.
    for _ in 0..3 {
        let snapshot = shape.aliases.clone();
        for body in shape.aliases.values_mut() {
            *body = substitute(body, &snapshot);
        }
    }
    shape
}

/// `toks` with every alias replaced by what it names, in parentheses.
fn substitute<'a>(
    toks: &[Token<'a>],
    aliases: &HashMap<&'a str, Vec<Token<'a>>>,
) -> Vec<Token<'a>> {
    let mut out = Vec::with_capacity(toks.len());
    for t in toks {
        match (t.kind, t.qualified, aliases.get(t.text)) {
            (Kind::Var, false, Some(body)) => {
                out.push(synthetic(t, Kind::Special, "("));
                out.extend(body.iter().map(|b| Token {
                    line: t.line,
                    column: t.column,
                    ..*b
                }));
                out.push(synthetic(t, Kind::Special, ")"));
            }
            _ => out.push(*t),
        }
    }
    out
}

/// A token made by a rewrite, at the place of `at`.
fn synthetic<'a>(at: &Token<'a>, kind: Kind, text: &'static str) -> Token<'a> {
    Token {
        kind,
        text,
        qualified: false,
        ..*at
    }
}

/// Rewrites the calls of `toks`: arguments of full calls to a function
/// with an argument order in canonical order, then aliases replaced.
pub fn calls<'a>(toks: &[Token<'a>], shape: &Shape<'a>) -> Vec<Token<'a>> {
    let ends = group_ends(toks);
    let mut permuted: Vec<Token<'a>> = Vec::with_capacity(toks.len());
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        permuted.push(*t);
        i += 1;
        let Some(order) = (t.kind == Kind::Var && !t.qualified)
            .then(|| shape.orders.get(t.text))
            .flatten()
        else {
            continue;
        };
        let mut args = Vec::with_capacity(order.len());
        let mut j = i;
        while args.len() < order.len() {
            match atom_in(toks, &ends, j) {
                Some(end) => {
                    args.push(j..end);
                    j = end;
                }
                None => break,
            }
        }
        if args.len() == order.len() {
            for &n in order {
                permuted.extend_from_slice(&toks[args[n].clone()]);
            }
            i = j;
        }
    }
    if shape.aliases.is_empty() {
        permuted
    } else {
        substitute(&permuted, &shape.aliases)
    }
}

/// Whether the definition named `name` is an alias (it gives no codes).
pub fn is_alias(shape: &Shape<'_>, name: &str) -> bool {
    shape.aliases.contains_key(name)
}

/// List comprehensions rewritten to `map`, `filter` and `concatMap`.
pub fn comprehensions<'a>(toks: &[Token<'a>]) -> Vec<Token<'a>> {
    nested_comprehensions(toks, 0)
}

/// Deepest nesting the rewrites follow (of comprehensions, generators and
/// local bindings); deeper code is coded as written, so that no input,
/// however deep, can exhaust the stack.
const DEPTH: usize = 32;

fn nested_comprehensions<'a>(toks: &[Token<'a>], depth: usize) -> Vec<Token<'a>> {
    let mut out = Vec::with_capacity(toks.len());
    let ends = group_ends(toks);
    let bars = bars(toks);
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        if bars[i] {
            let end = ends[i];
            let inner = &toks[i + 1..end.saturating_sub(1).max(i + 1)];
            if let Some(rewritten) = (depth < DEPTH)
                .then(|| comprehension(&toks[i], inner, depth))
                .flatten()
            {
                out.extend(rewritten);
                i = end;
                continue;
            }
        }
        out.push(*t);
        i += 1;
    }
    out
}

/// Splits `toks` at depth 0 where `split` holds (the separators dropped).
fn split_at_depth0<'b, 'a>(
    toks: &'b [Token<'a>],
    split: impl Fn(&Token<'a>) -> bool,
) -> Vec<&'b [Token<'a>]> {
    let mut parts = Vec::new();
    let mut depth = 0;
    let mut start = 0;
    for (i, t) in toks.iter().enumerate() {
        if opens(t) {
            depth += 1;
        } else if closes(t) {
            depth -= 1;
        } else if depth == 0 && split(t) {
            parts.push(&toks[start..i]);
            start = i + 1;
        }
    }
    parts.push(&toks[start..]);
    parts
}

/// One comprehension's rewrite (`inner` is between its brackets), or
/// `None` when it is no comprehension (or one this does not rewrite).
fn comprehension<'a>(at: &Token<'a>, inner: &[Token<'a>], depth: usize) -> Option<Vec<Token<'a>>> {
    let halves = split_at_depth0(inner, |t| is(t, "|"));
    let [head, quals] = halves.as_slice() else {
        return None;
    };
    let quals: Vec<&[Token<'a>]> =
        split_at_depth0(quals, |t| t.kind == Kind::Special && t.text == ",");
    // Inner comprehensions first.
    if quals.len() > DEPTH {
        return None;
    }
    let head = nested_comprehensions(head, depth + 1);
    let quals: Vec<Vec<Token<'a>>> = quals
        .iter()
        .map(|q| nested_comprehensions(q, depth + 1))
        .collect();
    build(at, &head, &quals)
}

fn build<'a>(
    at: &Token<'a>,
    head: &[Token<'a>],
    quals: &[Vec<Token<'a>>],
) -> Option<Vec<Token<'a>>> {
    let (first, rest) = quals.split_first()?;
    let arrow = first.iter().position(|t| is(t, "<-"))?;
    let (pattern, list) = (&first[..arrow], &first[arrow + 1..]);
    if pattern.is_empty() || first.first().is_some_and(|t| is(t, "let")) {
        return None;
    }
    let guards: Vec<&Vec<Token<'a>>> = rest
        .iter()
        .take_while(|q| !q.iter().any(|t| is(t, "<-")) && !q.first().is_some_and(|t| is(t, "let")))
        .collect();
    let after = &rest[guards.len()..];
    if after
        .first()
        .is_some_and(|q| q.first().is_some_and(|t| is(t, "let")))
    {
        return None;
    }
    let s = |text: &'static str| synthetic(at, Kind::Special, text);
    let v = |text: &'static str| synthetic(at, Kind::Var, text);
    let lambda = |body: &[Token<'a>]| {
        let mut out = vec![s("("), synthetic(at, Kind::ReservedOp, "\\")];
        out.extend_from_slice(pattern);
        out.push(synthetic(at, Kind::ReservedOp, "->"));
        out.extend_from_slice(body);
        out.push(s(")"));
        out
    };
    let mut source = Vec::new();
    if guards.is_empty() {
        source.push(s("("));
        source.extend_from_slice(list);
        source.push(s(")"));
    } else {
        let mut test = Vec::new();
        for (n, g) in guards.iter().enumerate() {
            if n > 0 {
                test.push(synthetic(at, Kind::VarSym, "&&"));
            }
            test.extend_from_slice(g);
        }
        source.push(s("("));
        source.push(v("filter"));
        source.extend(lambda(&test));
        source.push(s("("));
        source.extend_from_slice(list);
        source.push(s(")"));
        source.push(s(")"));
    }
    let same = |a: &[Token<'_>], b: &[Token<'_>]| {
        a.len() == b.len()
            && a.iter()
                .zip(b)
                .all(|(x, y)| x.kind == y.kind && x.text == y.text)
    };
    let mut out = Vec::new();
    if after.is_empty() {
        if same(head, pattern) {
            return Some(source);
        }
        out.push(s("("));
        out.push(v("map"));
        out.extend(lambda(head));
    } else {
        out.push(s("("));
        out.push(v("concatMap"));
        out.extend(lambda(&build(at, head, after)?));
    }
    out.extend(source);
    out.push(s(")"));
    Some(out)
}

/// Longest lambda body looked at for eta-reduction, in tokens.
const LAMBDA_BODY: usize = 256;

/// Every lambda of one plain variable `\x -> … x` whose body ends with an
/// application to `x` (used once), eta-reduced.
pub fn lambdas<'a>(toks: &[Token<'a>]) -> Vec<Token<'a>> {
    let mut out: Vec<Token<'a>> = toks.to_vec();
    let mut i = 0;
    while i < out.len() {
        if is(&out[i], "\\")
            && out.get(i + 1).is_some_and(|t| t.kind == Kind::Var)
            && out.get(i + 2).is_some_and(|t| is(t, "->"))
        {
            let name = out[i + 1].text;
            // The body: to the end of the enclosing group.
            let mut depth = 0;
            let mut end = (i + 3 + LAMBDA_BODY).min(out.len());
            let reaches = end == out.len();
            let mut closed = false;
            for (j, t) in out.iter().enumerate().skip(i + 3).take(LAMBDA_BODY) {
                if opens(t) {
                    depth += 1;
                } else if closes(t) {
                    if depth == 0 {
                        end = j;
                        closed = true;
                        break;
                    }
                    depth -= 1;
                }
            }
            let mut body: Vec<Token<'a>> = out[i + 3..end].to_vec();
            if (closed || reaches) && eta(&mut body, name) {
                out.splice(i..end, body);
                continue;
            }
        }
        i += 1;
    }
    out
}

/// An equation (or local binding) split into blocks: its expression, then
/// each local binding (of `where` and `let`), each a block of its own. The
/// left-hand side is left out when its parameters are all plain
/// variables, which the body is eta-reduced by.
pub fn blocks<'a>(toks: &[Token<'a>]) -> Vec<Vec<Token<'a>>> {
    nested_blocks(toks, 0)
}

fn nested_blocks<'a>(toks: &[Token<'a>], depth: usize) -> Vec<Vec<Token<'a>>> {
    if depth > DEPTH {
        return vec![toks.to_vec()];
    }
    let mut out = Vec::new();
    let mut main: Vec<Token<'a>> = Vec::new();
    let (body_start, params) = match prefix_lhs(toks) {
        Some((eq, params)) => (eq, params),
        None => {
            let eq = toks
                .iter()
                .position(|t| is(t, "=") || is(t, "|"))
                .unwrap_or(0);
            main.extend_from_slice(&toks[..eq]);
            (eq, Vec::new())
        }
    };
    let names: Vec<Option<&str>> = params.iter().map(|r| plain(toks, r)).collect();
    let all_plain = names.iter().all(Option::is_some);
    if !all_plain {
        for r in &params {
            main.extend_from_slice(&toks[r.clone()]);
        }
    }
    let mut rest = &toks[body_start..];
    if rest.first().is_some_and(|t| is(t, "=")) {
        rest = &rest[1..];
    }
    let mut i = 0;
    while i < rest.len() {
        let t = &rest[i];
        if is(t, "where") || is(t, "let") {
            let is_let = is(t, "let");
            // The bindings: to the matching `in` (a let) or the end.
            let mut end = rest.len();
            if is_let {
                let mut lets = 0;
                let mut depth = 0;
                for (j, u) in rest.iter().enumerate().skip(i + 1) {
                    if opens(u) {
                        depth += 1;
                    } else if closes(u) {
                        if depth == 0 {
                            end = j;
                            break;
                        }
                        depth -= 1;
                    } else if is(u, "let") {
                        lets += 1;
                    } else if is(u, "in") && depth == 0 {
                        if lets == 0 {
                            end = j;
                            break;
                        }
                        lets -= 1;
                    }
                }
            }
            let bindings = &rest[i + 1..end];
            if let Some(column) = bindings.first().map(|b| b.column) {
                let mut start = 0;
                for j in 1..=bindings.len() {
                    let new_item = j == bindings.len()
                        || (bindings[j].line > bindings[j - 1].line
                            && bindings[j].column <= column);
                    if new_item {
                        out.extend(nested_blocks(&bindings[start..j], depth + 1));
                        start = j;
                    }
                }
            }
            i = if end < rest.len() && is(&rest[end], "in") {
                end + 1
            } else {
                end
            };
            continue;
        }
        main.push(*t);
        i += 1;
    }
    if all_plain {
        let mut left = names.len();
        while left > 0 {
            match names[left - 1] {
                Some(p) if eta(&mut main, p) => left -= 1,
                _ => break,
            }
        }
    }
    out.sort_by(|a: &Vec<Token<'a>>, b| {
        let key = |v: &Vec<Token<'a>>| v.iter().map(|t| (t.kind as u8, t.text)).collect::<Vec<_>>();
        key(a).cmp(&key(b))
    });
    out.insert(0, main);
    out
}

/// The conditional marks: a block's guards, `if`, boolean `case` and
/// `case () of _` as one chain of `if` / `then` / `else` tokens.
pub fn conditionals<'a>(toks: &[Token<'a>]) -> Vec<Token<'a>> {
    let mut out: Vec<Token<'a>> = Vec::with_capacity(toks.len());
    // Bracket stack: whether each open bracket is a `[`.
    let mut brackets: Vec<bool> = Vec::new();
    // Depths at which a guard awaits its `=` or `->`.
    let mut guard_at: Vec<usize> = Vec::new();
    // Depths of open boolean cases.
    let mut bool_case: Vec<usize> = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let t = toks[i];
        let depth = brackets.len();
        if opens(&t) {
            brackets.push(t.text == "[");
        } else if closes(&t) {
            brackets.pop();
        }
        let mark = |text: &'static str| synthetic(&t, Kind::Keyword, text);
        if is(&t, "case") {
            // `case () of _` is only there for its guards.
            let unit = toks.get(i + 1..i + 5).is_some_and(|w| {
                w[0].text == "(" && w[1].text == ")" && is(&w[2], "of") && is(&w[3], "_")
            });
            if unit {
                i += 5;
                continue;
            }
            let of = toks[i..].iter().position(|u| is(u, "of")).map(|p| p + i);
            if let Some(of) = of
                && toks
                    .get(of + 1)
                    .is_some_and(|u| u.kind == Kind::Con && matches!(u.text, "True" | "False"))
                && toks.get(of + 2).is_some_and(|u| is(u, "->"))
            {
                out.push(mark("if"));
                out.extend_from_slice(&toks[i + 1..of]);
                out.push(mark(if toks[of + 1].text == "True" {
                    "then"
                } else {
                    "else"
                }));
                bool_case.push(depth);
                i = of + 3;
                continue;
            }
        }
        if bool_case.last() == Some(&depth)
            && matches!(t.kind, Kind::Con | Kind::Keyword)
            && matches!(t.text, "True" | "False" | "_")
            && toks.get(i + 1).is_some_and(|u| is(u, "->"))
        {
            out.push(mark(if t.text == "True" { "then" } else { "else" }));
            if t.text != "True" {
                bool_case.pop();
            }
            i += 2;
            continue;
        }
        if is(&t, "|") && brackets.last() != Some(&true) {
            let otherwise = toks.get(i + 1).is_some_and(|u| {
                u.kind == Kind::Var && u.text == "otherwise"
                    || u.kind == Kind::Con && u.text == "True"
            }) && toks.get(i + 2).is_some_and(|u| is(u, "=") || is(u, "->"));
            if otherwise {
                out.push(mark("else"));
                i += 3;
                continue;
            }
            out.push(mark("if"));
            guard_at.push(depth);
            i += 1;
            continue;
        }
        if (is(&t, "=") || is(&t, "->")) && guard_at.last() == Some(&depth) {
            guard_at.pop();
            out.push(mark("then"));
            i += 1;
            continue;
        }
        if is(&t, "else") && toks.get(i + 1).is_some_and(|u| is(u, "if")) {
            i += 1;
            continue;
        }
        out.push(t);
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use haskell_text::source::tokens;

    #[test]
    fn no_nesting_exhausts_the_stack() {
        let n = 3_000;
        let lets = format!("f x = {}x{}\n", "let y = 1 in ".repeat(n), "");
        let wheres: String = (0..n)
            .map(|i| format!("{}where g{i} = {i}\n", " ".repeat(i + 1)))
            .collect();
        let brackets = format!("f x = {}x | x <- y{}\n", "[ ".repeat(n), " ]".repeat(n));
        let generators = format!("f x = [ x | {} ]\n", vec!["x <- y"; n].join(", "));
        let comprehensions_deep = format!("f x = {}x{}\n", "[ ".repeat(n), " | x <- y ]".repeat(n));
        for text in [
            lets,
            format!("f x = x\n{wheres}"),
            brackets,
            generators,
            comprehensions_deep,
        ] {
            let toks = tokens(&text);
            let rewritten = lambdas(&comprehensions(&toks));
            let blocks = blocks(&rewritten);
            assert!(!blocks.is_empty());
            for b in &blocks {
                let _ = conditionals(b);
            }
        }
    }
}
