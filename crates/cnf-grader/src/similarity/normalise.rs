//! From a Haskell file to its top-level definitions, each a sequence of
//! normalised tokens that a renaming, a re-indentation, new comments or a
//! new order of the definitions leave unchanged.
//!
//! Decisions:
//! - tokens come from [`haskell_text::source`]: comments (nested `{- -}`
//!   too) and pragmas are gone, layout and white space are only used to
//!   find where a top-level declaration starts (a line starting at the
//!   module's column), never compared;
//! - the module header and the imports are left out: which modules a
//!   student imports is no evidence;
//! - consecutive declarations of one name (its type signature and its
//!   equations) form one definition;
//! - a name the student defined (any name that is not a library's of
//!   `known`, and a library's name the student binds in the
//!   definition, or defines at the top level of any of their files) becomes
//!   a placeholder that keeps only the binding structure: how many other
//!   names of the student's were used since this one was last used in the
//!   definition (its place in a most-recently-used list, as de Bruijn
//!   indices count binders), or "new". Unlike an index of first occurrence,
//!   this stays the same after dead code is inserted earlier in the
//!   definition. A library name keeps its name, without its qualifier;
//! - literals are kept by kind only (an integer, a string, …);
//! - `;`, `{` and `}` (explicit layout) are dropped, so explicit and
//!   implicit layout compare equal;
//! - type signatures are left out, and every equation is first brought to
//!   one shape ([`super::shape`]); a local binding's block and the
//!   expression's each count their placeholders afresh, so that the
//!   blocks can be sorted.

use std::collections::HashSet;

use haskell_text::source::{Kind, Token, tokens};

use super::known::is_known;
use super::shape;
use super::shape::Shape;

/// One top-level definition of a file, normalised.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Definition {
    /// The name it defines, as written (`dropPiece`, `data Cell`, `<+>`).
    pub name: String,
    /// Its first and last lines in the file.
    pub lines: (u32, u32),
    /// Its normalised tokens, each as a 64-bit code.
    pub codes: Vec<u64>,
    /// The line of each code's token.
    pub token_lines: Vec<u32>,
}

/// A file's tokens and where its top-level declarations are.
pub struct Lexed<'a> {
    tokens: Vec<Token<'a>>,
    /// Each declaration: its token range and its name (`None`: left out).
    decls: Vec<(std::ops::Range<usize>, Option<String>)>,
}

/// Lexes `source` and finds its top-level declarations.
pub fn lex(source: &str) -> Lexed<'_> {
    let tokens = tokens(source);
    let decls = declarations(&tokens);
    Lexed { tokens, decls }
}

impl<'a> Lexed<'a> {
    /// The names the file defines at the top level: functions, values,
    /// operators, types, constructors, record fields and class methods.
    pub fn top_level_names(&self) -> Vec<&'a str> {
        let mut out = Vec::new();
        for (range, name) in &self.decls {
            if name.is_none() {
                continue;
            }
            let toks = &self.tokens[range.clone()];
            match toks.first().map(|t| (t.kind, t.text)) {
                Some((Kind::Keyword, "data" | "newtype" | "type" | "class")) => {
                    type_names(toks, &mut out);
                }
                Some((Kind::Keyword, _)) => {}
                _ => lhs_binders(toks, true, &mut out),
            }
        }
        out
    }

    /// The file's top-level definitions: each name's consecutive
    /// declarations (its signature and equations), as token ranges.
    fn groups(&self) -> Vec<(String, Vec<std::ops::Range<usize>>)> {
        let mut out: Vec<(String, Vec<std::ops::Range<usize>>)> = Vec::new();
        let mut last_name: Option<&str> = None;
        for (range, name) in &self.decls {
            let Some(name) = name.as_deref() else {
                last_name = None;
                continue;
            };
            match out.last_mut() {
                Some((_, group)) if last_name == Some(name) => group.push(range.clone()),
                _ => out.push((name.to_owned(), vec![range.clone()])),
            }
            last_name = Some(name);
        }
        out
    }

    /// The file's definitions as [`shape::shape`] reads them.
    pub fn shape_input(&self) -> Vec<(&'a str, Vec<&[Token<'a>]>)> {
        self.groups()
            .into_iter()
            .filter_map(|(_, ranges)| {
                let first = &self.tokens[ranges.first()?.clone()];
                let mut names = Vec::new();
                lhs_binders(first, true, &mut names);
                let name = *names.first()?;
                Some((
                    name,
                    ranges.iter().map(|r| &self.tokens[r.clone()]).collect(),
                ))
            })
            .collect()
    }

    /// The file's definitions, normalised; `student` holds the names the
    /// student defines at the top level of any of their files, `shape`
    /// what their definitions say about all their code.
    pub fn definitions(&self, student: &HashSet<&str>, shape: &Shape<'a>) -> Vec<Definition> {
        self.groups()
            .into_iter()
            .map(|(name, ranges)| self.normalise(&ranges, name, student, shape))
            .collect()
    }

    /// The normalised tokens of the declarations `ranges` of one name.
    fn normalise(
        &self,
        ranges: &[std::ops::Range<usize>],
        name: String,
        student: &HashSet<&str>,
        shape: &Shape<'a>,
    ) -> Definition {
        let whole = ranges.first().map_or(0, |r| r.start)..ranges.last().map_or(0, |r| r.end);
        let toks = &self.tokens[whole];
        let lines = (
            toks.first().map_or(0, |t| t.line),
            toks.last().map_or(0, |t| t.line),
        );
        let mut definition = Definition {
            name,
            lines,
            codes: Vec::with_capacity(toks.len()),
            token_lines: Vec::with_capacity(toks.len()),
        };
        let bound = binders(toks);
        let keyword = toks.first().is_some_and(|t| t.kind == Kind::Keyword);
        let mut defined = Vec::new();
        if let Some(first) = ranges.first() {
            lhs_binders(&self.tokens[first.clone()], true, &mut defined);
        }
        if keyword {
            code_block(toks, &bound, student, &mut definition);
            return definition;
        }
        if defined.first().is_some_and(|n| shape::is_alias(shape, n)) {
            return definition;
        }
        for range in ranges {
            let decl = &self.tokens[range.clone()];
            if is_signature(decl) {
                continue;
            }
            if decl.len() > SHAPED {
                code_block(decl, &bound, student, &mut definition);
                continue;
            }
            let toks = shape::calls(decl, shape);
            let toks = shape::comprehensions(&toks);
            let toks = shape::lambdas(&toks);
            for (n, block) in shape::blocks(&toks).iter().enumerate() {
                if n > 0 || !definition.codes.is_empty() {
                    definition.codes.push(code(b's', "\u{a7}"));
                    definition
                        .token_lines
                        .push(block.first().map_or(lines.0, |t| t.line));
                }
                code_block(
                    &shape::conditionals(block),
                    &bound,
                    student,
                    &mut definition,
                );
            }
        }
        definition
    }
}

/// Longest declaration, in tokens, brought to one shape ([`shape`]);
/// longer ones (no student writes one) are coded as written, so the work
/// stays linear in any input.
const SHAPED: usize = 4000;

/// Whether a declaration is a type signature.
fn is_signature(toks: &[Token<'_>]) -> bool {
    find_at_depth0(toks, |t| is(t, "=") || is(t, "|") || is(t, "::"))
        .is_some_and(|i| is(&toks[i], "::"))
}

/// Codes `toks` onto `out`, the student's names as placeholders counted
/// afresh (a block's codes do not depend on the blocks before it).
fn code_block(
    toks: &[Token<'_>],
    bound: &HashSet<&str>,
    student: &HashSet<&str>,
    out: &mut Definition,
) {
    let mut recent: Vec<&str> = Vec::new();
    for t in toks {
        if shape::is_grouping(t) {
            continue;
        }
        let code = match t.kind {
            Kind::Var | Kind::Con | Kind::VarSym | Kind::ConSym => {
                let text = t.name();
                let own = !t.qualified
                    && (!is_known(text) || bound.contains(text) || student.contains(text));
                if own {
                    placeholder(t.kind, &mut recent, text)
                } else {
                    code(b'n', text)
                }
            }
            Kind::Integer | Kind::Float | Kind::Char | Kind::String => {
                code(b'l', &format!("{:?}", t.kind))
            }
            Kind::Keyword | Kind::ReservedOp | Kind::Special | Kind::Other => code(b's', t.text),
        };
        out.codes.push(code);
        out.token_lines.push(t.line);
    }
}

/// Places in the most-recently-used list told apart; further ones are one.
const DISTANCES: usize = 8;

/// The placeholder of the student's name `name`: its kind and its place in
/// the most-recently-used list `recent` (most recent last), which it then
/// moves to the end of.
fn placeholder<'a>(kind: Kind, recent: &mut Vec<&'a str>, name: &'a str) -> u64 {
    let tag = match kind {
        Kind::Var => b'v',
        Kind::Con => b'c',
        _ => b'o',
    };
    let place = match recent.iter().rposition(|n| *n == name) {
        Some(i) => {
            let distance = recent.len() - 1 - i;
            recent.remove(i);
            distance.min(DISTANCES - 1)
        }
        None => DISTANCES,
    };
    recent.push(name);
    mix(u64::from(tag) << 32 | place as u64)
}

/// The code of a token of class `tag` (`n`ame, `l`iteral, `s`yntax) and text.
fn code(tag: u8, text: &str) -> u64 {
    // FNV-1a, then a finaliser so that codes spread over all 64 bits.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in std::iter::once(tag).chain(text.bytes()) {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    mix(h)
}

/// SplitMix64's finaliser.
pub(crate) fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// Whether token `i` is the first of its line.
fn first_on_line(toks: &[Token<'_>], i: usize) -> bool {
    i == 0 || toks[i - 1].line < toks[i].line
}

/// The top-level declarations of a file: token ranges, and the name each
/// defines (`None` for the module header and imports, left out).
fn declarations(toks: &[Token<'_>]) -> Vec<(std::ops::Range<usize>, Option<String>)> {
    // The module's body starts after `module … where`, if there is one.
    let mut body = 0;
    if toks
        .first()
        .is_some_and(|t| t.kind == Kind::Keyword && t.text == "module")
    {
        body = toks
            .iter()
            .position(|t| t.kind == Kind::Keyword && t.text == "where")
            .map_or(toks.len(), |w| w + 1);
    }
    let mut out = Vec::new();
    if body > 0 {
        out.push((0..body, None));
    }
    let Some(column) = toks.get(body).map(|t| t.column) else {
        return out;
    };
    let mut starts: Vec<usize> = (body..toks.len())
        .filter(|&i| i == body || (first_on_line(toks, i) && toks[i].column <= column))
        .collect();
    starts.push(toks.len());
    for w in starts.windows(2) {
        let range = w[0]..w[1];
        let name = decl_name(&toks[range.clone()]);
        out.push((range, name));
    }
    out
}

/// Whether `t` is the reserved operator or keyword or special `text`.
fn is(t: &Token<'_>, text: &str) -> bool {
    matches!(t.kind, Kind::ReservedOp | Kind::Keyword | Kind::Special) && t.text == text
}

/// Bracket depth after `t`, from `depth`.
fn step_depth(t: &Token<'_>, depth: i32) -> i32 {
    match (t.kind, t.text) {
        (Kind::Special, "(" | "[" | "{") => depth + 1,
        (Kind::Special, ")" | "]" | "}") => depth - 1,
        _ => depth,
    }
}

/// The index of the first token at bracket depth 0 for which `stop` holds.
fn find_at_depth0(toks: &[Token<'_>], stop: impl Fn(&Token<'_>) -> bool) -> Option<usize> {
    let mut depth = 0;
    for (i, t) in toks.iter().enumerate() {
        if depth == 0 && stop(t) {
            return Some(i);
        }
        depth = step_depth(t, depth);
    }
    None
}

/// The name a top-level declaration defines (`None`: an import).
fn decl_name(toks: &[Token<'_>]) -> Option<String> {
    let first = toks.first()?;
    if first.kind == Kind::Keyword {
        return match first.text {
            "import" => None,
            keyword => {
                let head: Vec<&str> = toks
                    .iter()
                    .skip(1)
                    .take_while(|t| !(is(t, "=") || is(t, "where") || is(t, "::")))
                    .take(4)
                    .map(|t| t.text)
                    .collect();
                Some(format!("{keyword} {}", head.join(" ")))
            }
        };
    }
    let mut names = Vec::new();
    lhs_binders(toks, true, &mut names);
    Some(names.first().map_or_else(
        || format!("(binding at line {})", first.line),
        |n| (*n).to_owned(),
    ))
}

/// The names an equation or signature `toks` defines: with `only_defined`,
/// the function (or operator) or the signature's names; otherwise every
/// variable of its left-hand side too (its patterns).
fn lhs_binders<'a>(toks: &[Token<'a>], only_defined: bool, out: &mut Vec<&'a str>) {
    let end =
        find_at_depth0(toks, |t| is(t, "=") || is(t, "|") || is(t, "::")).unwrap_or(toks.len());
    let lhs = &toks[..end];
    if toks.get(end).is_some_and(|t| is(t, "::")) {
        // A signature: `f, g :: T` or `(<+>) :: T`.
        out.extend(
            lhs.iter()
                .filter(|t| matches!(t.kind, Kind::Var | Kind::VarSym | Kind::ConSym))
                .map(|t| t.text),
        );
        return;
    }
    // An infix definition: `x <+> y = …` or ``x `op` y = …``.
    let mut depth = 0;
    let mut infix = None;
    for (i, t) in lhs.iter().enumerate() {
        if depth == 0 && i > 0 {
            if matches!(t.kind, Kind::VarSym | Kind::ConSym) {
                infix = Some(t.text);
                break;
            }
            if is(t, "`")
                && let Some(op) = lhs.get(i + 1).filter(|n| n.kind == Kind::Var)
            {
                infix = Some(op.text);
                break;
            }
        }
        depth = step_depth(t, depth);
    }
    let defined = infix.or_else(|| match lhs {
        [open, op, close, ..]
            if is(open, "(")
                && matches!(op.kind, Kind::VarSym | Kind::ConSym)
                && is(close, ")") =>
        {
            Some(op.text)
        }
        [f, ..] if f.kind == Kind::Var => Some(f.text),
        _ => None,
    });
    if let Some(name) = defined {
        out.push(name);
    }
    if !only_defined || defined.is_none() {
        // Patterns: every variable (a pattern binding defines them all).
        out.extend(
            lhs.iter()
                .filter(|t| t.kind == Kind::Var && !t.qualified)
                .map(|t| t.text),
        );
    }
}

/// The names a `data`, `newtype`, `type` or `class` declaration defines:
/// the type (or class), its constructors, its record fields and methods.
fn type_names<'a>(toks: &[Token<'a>], out: &mut Vec<&'a str>) {
    if let Some(t) = toks.iter().skip(1).find(|t| t.kind == Kind::Con) {
        out.push(t.text);
    }
    let mut depth = 0;
    for (i, t) in toks.iter().enumerate() {
        let next = toks.get(i + 1);
        if depth == 0
            && (is(t, "=") || is(t, "|"))
            && let Some(n) = next.filter(|n| matches!(n.kind, Kind::Con | Kind::ConSym))
        {
            out.push(n.text);
        }
        if (t.kind == Kind::Var || t.kind == Kind::VarSym)
            && next.is_some_and(|n| is(n, "::") || is(n, ","))
            && (depth > 0 || toks[0].text == "class")
        {
            out.push(t.text);
        }
        depth = step_depth(t, depth);
    }
}

/// The kinds of layout block a binding can be in.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Block {
    /// The module's top level, `where` and `let`: equations and signatures.
    Bindings,
    /// `do`: statements (`pattern <- action`).
    Do,
    /// `case … of`: alternatives (`pattern -> expression`).
    Of,
}

/// Every name the declarations `toks` bind anywhere: in left-hand sides at
/// the top level and in `where` and `let` blocks, in `<-` patterns (`do`,
/// list comprehensions, pattern guards), in case alternatives and lambdas.
/// Layout blocks are followed as the layout rule opens and closes them.
fn binders<'a>(toks: &[Token<'a>]) -> HashSet<&'a str> {
    let mut items: Vec<(usize, Block)> = Vec::new();
    let mut starts = vec![false; toks.len()];
    // (column, kind, bracket depth) of each open block.
    let mut stack: Vec<(u32, Block, i32)> = Vec::new();
    let mut depth = 0;
    for (i, t) in toks.iter().enumerate() {
        if first_on_line(toks, i) {
            while stack.len() > 1 && stack.last().is_some_and(|b| t.column < b.0) {
                stack.pop();
            }
            match stack.last() {
                None => {
                    stack.push((t.column, Block::Bindings, depth));
                    items.push((i, Block::Bindings));
                }
                Some(&(column, kind, _)) if t.column == column => items.push((i, kind)),
                _ => {}
            }
        }
        if is(t, "in") {
            while stack.len() > 1 {
                let (_, kind, _) = stack.pop().unwrap_or((0, Block::Bindings, 0));
                if kind == Block::Bindings {
                    break;
                }
            }
        }
        depth = step_depth(t, depth);
        while stack.len() > 1 && stack.last().is_some_and(|b| b.2 > depth) {
            stack.pop();
        }
        let opens = match (t.kind, t.text) {
            (Kind::Keyword, "where" | "let") => Some(Block::Bindings),
            (Kind::Keyword, "do") => Some(Block::Do),
            (Kind::Keyword, "of") => Some(Block::Of),
            _ => None,
        };
        if let (Some(kind), Some(next)) = (opens, toks.get(i + 1))
            && !is(next, "{")
            && stack.last().is_none_or(|b| next.column > b.0)
        {
            stack.push((next.column, kind, depth));
            // The next token starts the block's first item (marked when
            // it is reached, unless it is first on its line anyway).
            if !first_on_line(toks, i + 1) {
                items.push((i + 1, kind));
            }
        }
    }
    items.sort_by_key(|(i, _)| *i);
    items.dedup_by_key(|(i, _)| *i);
    for &(i, _) in &items {
        starts[i] = true;
    }
    let mut out: Vec<&'a str> = Vec::new();
    for (n, &(start, kind)) in items.iter().enumerate() {
        let end = items.get(n + 1).map_or(toks.len(), |(next, _)| *next);
        let item = &toks[start..end];
        match kind {
            Block::Bindings => lhs_binders(item, false, &mut out),
            Block::Of => {
                let end = find_at_depth0(item, |t| is(t, "->") || is(t, "|")).unwrap_or(0);
                out.extend(
                    item[..end]
                        .iter()
                        .filter(|t| t.kind == Kind::Var)
                        .map(|t| t.text),
                );
            }
            // `<-` is handled below, wherever it is.
            Block::Do => {}
        }
    }
    for (i, t) in toks.iter().enumerate() {
        if is(t, "<-") {
            // Back to the start of the pattern: a comma, a bar or an
            // opening bracket at this depth, or the start of an item.
            let mut depth = 0;
            for j in (0..i).rev() {
                let u = &toks[j];
                match (u.kind, u.text) {
                    (Kind::Special, ")" | "]") => depth += 1,
                    (Kind::Special, "(" | "[") if depth == 0 => break,
                    (Kind::Special, "(" | "[") => depth -= 1,
                    (Kind::Special, "," | ";" | "{") | (Kind::ReservedOp, "|" | "=" | "->")
                        if depth == 0 =>
                    {
                        break;
                    }
                    (Kind::Keyword, _) if depth == 0 => break,
                    (Kind::Var, _) => out.push(u.text),
                    _ => {}
                }
                if starts[j] {
                    break;
                }
            }
        }
        if is(t, "\\") && toks.get(i + 1).is_none_or(|n| !is(n, "case")) {
            let rest = &toks[i + 1..];
            let end = find_at_depth0(rest, |t| is(t, "->")).unwrap_or(0);
            out.extend(
                rest[..end]
                    .iter()
                    .filter(|t| t.kind == Kind::Var)
                    .map(|t| t.text),
            );
        }
    }
    out.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn defs(source: &str) -> Vec<Definition> {
        let lexed = lex(source);
        let names: HashSet<&str> = lexed.top_level_names().into_iter().collect();
        let shape = shape::shape(&lexed.shape_input());
        lexed.definitions(&names, &shape)
    }

    #[test]
    fn declarations_group_by_name_and_skip_the_header() {
        let d = defs(
            "module M (f) where\nimport Data.List\n\nf :: Int -> Int\nf 0 = 1\nf n =\n  n * f (n - 1)\n\n\
             data Cell = Empty | Full Int\nx <+> y = x\n(<->) a b = b\ng = 2\n",
        );
        let names: Vec<(&str, (u32, u32))> = d.iter().map(|d| (d.name.as_str(), d.lines)).collect();
        assert_eq!(
            names,
            [
                ("f", (4, 7)),
                ("data Cell", (9, 9)),
                ("<+>", (10, 10)),
                ("<->", (11, 11)),
                ("g", (12, 12))
            ]
        );
    }

    #[test]
    fn top_level_names_include_types_constructors_and_fields() {
        let lexed = lex(
            "data P = P { px :: Int, py :: Int } | Q\nclass C a where\n  m :: a\nf, g :: Int\nx `op` y = 1\n",
        );
        let mut names = lexed.top_level_names();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names, ["C", "P", "Q", "f", "g", "m", "op", "px", "py"]);
    }

    #[test]
    fn binders_found_in_every_binding_form() {
        let toks = tokens(
            "f last (a, b) = do\n  lines <- getLine\n  let max = 3\n  print [ sum | sum <- xs, odd sum ]\n  \
             where\n    words = \\id -> case id of\n      Just min -> min\n",
        );
        let mut found: Vec<&str> = binders(&toks).into_iter().collect();
        found.sort_unstable();
        assert_eq!(
            found,
            [
                "a", "b", "f", "id", "last", "lines", "max", "min", "sum", "words"
            ]
        );
    }

    #[test]
    fn renaming_a_bound_library_name_changes_nothing() {
        let a = defs("f xs = let last = 3 in last + length xs\n");
        let b = defs("f ys = let q = 3 in q + length ys\n");
        assert_eq!(a[0].codes, b[0].codes);
        // But a library name used as such is kept.
        let c = defs("f ys = let q = 3 in q + sum ys\n");
        assert_ne!(b[0].codes, c[0].codes);
    }

    #[test]
    fn comments_layout_and_literal_values_change_nothing() {
        let a = defs("f x = -- one\n  x + 1 {- two -}\n");
        let b = defs("f y = y + 7\n");
        assert_eq!(a[0].codes, b[0].codes);
        let c = defs("f y = y + 'c'\n");
        assert_ne!(a[0].codes, c[0].codes);
    }

    #[test]
    fn placeholders_keep_the_binding_structure() {
        // `x + y` and `x + x` differ, though both rename to placeholders.
        assert_ne!(
            defs("f x y = x + y\n")[0].codes,
            defs("f x y = x + x\n")[0].codes
        );
    }
}
