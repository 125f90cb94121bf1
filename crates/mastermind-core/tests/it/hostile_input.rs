//! Hostile typing: the `mastermind` menu and its games fed random bytes,
//! very long lines, invalid UTF-8 and end of input at every prompt never
//! panic, never spin, and exit cleanly (code 0, nothing on standard error).

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use test_support::{Cli, Run, TIMEOUT};

/// Runs `mastermind ARGS` with `input` on standard input, then end of input.
fn mastermind(args: &[&str], input: &[u8]) -> Run {
    Cli::new(env!("CARGO_BIN_EXE_mastermind"))
        .args(args)
        .stdin(input)
        .timeout(TIMEOUT)
        .run()
}

/// `lines` joined, each with its LF.
fn typed(lines: &[&[u8]]) -> Vec<u8> {
    lines
        .iter()
        .flat_map(|l| l.iter().chain(b"\n"))
        .copied()
        .collect()
}

#[test]
fn random_bytes_at_the_menu_and_in_its_games() {
    let mut rng = StdRng::seed_from_u64(8);
    for round in 0..20 {
        let len = rng.random_range(0..4000);
        let mut bytes: Vec<u8> = (0..len).map(|_| rng.random()).collect();
        for b in bytes.iter_mut() {
            // Short lines, and now and then a menu key, so games start.
            if rng.random_ratio(1, 6) {
                *b = b'\n';
            } else if rng.random_ratio(1, 10) {
                *b = *b"HhCcBb".get(rng.random_range(0..6)).unwrap_or(&b'H');
            }
        }
        let run = mastermind(&["--seed", "1"], &bytes);
        run.clone().labelled(format!("round {round}")).clean();
        assert!(run.stdout.contains("|> "));
    }
}

#[test]
fn invalid_utf8_and_very_long_lines_at_every_kind_of_prompt() {
    let long = vec![b'a'; 10_000_000];
    let bad: &[u8] = b"\xff\xfe\xc3\x28";
    for (args, after) in [
        (&["--seed", "1"][..], &b"Q\n"[..]),
        (&["human", "--secret", "abcd"][..], &b"abcd\n"[..]),
        (&["computer"][..], &b"40\n"[..]),
    ] {
        // A long line without a line end, then one with a line end and
        // invalid UTF-8 lines before a line that ends the game.
        let run = mastermind(args, &long);
        run.clone()
            .labelled(format!("{args:?}: a 10 MB line"))
            .clean();
        let mut input = long.clone();
        input.push(b'\n');
        input.extend(typed(&[bad, b"\xff", b"abc\xffd"]));
        input.extend_from_slice(after);
        let run = mastermind(args, &input);
        run.clone()
            .labelled(format!("{args:?}: long and bad lines"))
            .clean();
        let end = [
            "\\================================/\n",
            "Congratulation!\n",
            "I'm the best!\n",
        ];
        assert!(
            end.iter()
                .any(|e| run.stdout.trim_end_matches('\n').ends_with(e.trim_end())),
            "{args:?}: the game did not end after the bad lines: {}",
            &run.stdout[run.stdout.len().saturating_sub(300)..]
        );
    }
}

/// Runs `args` with every prefix of `lines` (end of input after 0, 1, ...
/// lines) and checks each exits cleanly; returns the run on all of them.
fn end_of_input_everywhere(args: &[&str], lines: &[&[u8]]) -> Run {
    for cut in 0..lines.len() {
        let run = mastermind(args, &typed(&lines[..cut]));
        run.clone()
            .labelled(format!("{args:?}: end of input after {cut} lines"))
            .clean();
        // The program was waiting at a prompt, which ends without a line end.
        assert!(
            run.stdout.ends_with(": ") || run.stdout.ends_with("> ") || run.stdout.ends_with("=> "),
            "{args:?} cut {cut}: {}",
            &run.stdout[run.stdout.len().saturating_sub(200)..]
        );
    }
    let run = mastermind(args, &typed(lines));
    run.clone().labelled(format!("{args:?}: all lines")).clean();
    run
}

#[test]
fn end_of_input_at_every_prompt() {
    // The menu: junk, a computer game scored by hand, a game of two
    // computers, a human game, then Q.
    let menu: &[&[u8]] = &[
        b"", b"hh", b"\xff", b"C", b"xx", b"99", b"00", b"40", b"B", b"H", b"?", b"zzzz", b"aaaa",
        b"abc", b"\t", b"abcd", b"abce", b"abcf", b"abdc", b"abdd", b"abde",
    ];
    end_of_input_everywhere(&["--seed", "1"], menu);
    let run = mastermind(&["--seed", "1"], &typed(&[b"Q"]));
    run.clone().labelled("Q").clean();
    assert!(
        run.stdout
            .ends_with("\\================================/\n\n")
    );

    let human: &[&[u8]] = &[b"?", b"abc", b"\xff\xff\xff\xff", b"abcz", b"aabb", b"abcd"];
    let run = end_of_input_everywhere(&["human", "--secret", "abcd"], human);
    assert!(run.stdout.ends_with("Congratulation!\n"), "{}", run.stdout);

    let computer: &[&[u8]] = &[b"", b"5", b"50", b"1 3", b"\xff0", b"00", b"40"];
    let run = end_of_input_everywhere(&["computer"], computer);
    assert!(run.stdout.ends_with("I'm the best!\n"), "{}", run.stdout);
}

#[test]
fn check_tree_never_panics_on_broken_trees() {
    // A valid 2×3 tree, then random damage: exit 0, 1 (an invalid tree) or 2 (not JSON),
    // always with one `error: ` line on failure, never a panic.
    let tree = mastermind(
        &["--pegs", "2", "--colors", "3", "tree", "--format", "json"],
        b"",
    );
    let text = tree.stdout.trim().as_bytes().to_vec();
    let mut rng = StdRng::seed_from_u64(15);
    let mut inputs: Vec<Vec<u8>> = (0..30)
        .map(|_| {
            let mut t = text.clone();
            for _ in 0..rng.random_range(1..4) {
                let i = rng.random_range(0..t.len());
                let damage = b"{}[]\":,0123456789abcnext ";
                t[i] = damage[rng.random_range(0..damage.len())];
            }
            t
        })
        .collect();
    // Deep nesting, a huge count, invalid UTF-8.
    inputs.push(
        "{\"guess\":\"aa\",\"next\":{\"00\":"
            .repeat(100_000)
            .into_bytes(),
    );
    inputs.push(br#"{"guess":"aa","candidates":1e999}"#.to_vec());
    inputs.push(b"\xff\xfe{}".to_vec());
    for (k, input) in inputs.iter().enumerate() {
        let run = mastermind(&["--pegs", "2", "--colors", "3", "check-tree", "-"], input);
        let code = run.status.code();
        assert!(
            matches!(code, Some(0..=2)),
            "input {k}: {code:?} {}",
            run.stderr
        );
        assert!(
            !run.stderr.contains("panicked"),
            "input {k}: {}",
            run.stderr
        );
        if code != Some(0) {
            assert!(
                run.stderr.starts_with("error: ") && run.stderr.lines().count() == 1,
                "input {k}: {}",
                run.stderr
            );
        }
    }
}
