//! What the parser accepts and refuses, following Haskell's derived `read`.

use peg_core::{
    Color, Move, Peg, Position, parse_board, parse_move, parse_peg, parse_position,
    parse_position_arg, parse_state, parse_states,
};

fn pos(x: i64, y: i64) -> Position {
    Position::new(x, y)
}

#[test]
fn whitespace_anywhere_between_tokens() {
    let b = parse_board("  [ Peg ( -3 , -1 ) B ,\n\tPeg(0,0)W\r\n ,Peg (1,0)\n B ]  \n").unwrap();
    assert_eq!(b.to_string(), "[Peg (-3,-1) B,Peg (0,0) W,Peg (1,0) B]");
    assert_eq!(parse_board("[ ]").unwrap().pegs().len(), 0);
    // Haskell's isSpace: form feed, vertical tab, no-break and ideographic spaces count...
    let odd = "[\u{c}Peg\u{b}(0,0)\u{a0}W,\u{3000}Peg (1,0) B]";
    assert_eq!(parse_board(odd).unwrap().pegs().len(), 2);
    // ...but NEL and the line separator do not.
    assert!(parse_board("[Peg (0,0)\u{85}W]").is_err());
    assert!(parse_board("[Peg (0,0)\u{2028}W]").is_err());
}

#[test]
fn redundant_parentheses_are_accepted() {
    assert_eq!(parse_position("(1,(-2))").unwrap(), pos(1, -2));
    assert_eq!(parse_position("((1,2))").unwrap(), pos(1, 2));
    assert_eq!(parse_position("( ((0)) , (-0) )").unwrap(), pos(0, 0));
    assert_eq!(
        parse_peg("(Peg ((1,0)) (W))").unwrap(),
        Peg::new(pos(1, 0), Color::W)
    );
    assert_eq!(parse_move("((M (1,0)))").unwrap(), Move(pos(1, 0)));
    let b = parse_board("([(Peg (0,0) W),((Peg (1,0) B))])").unwrap();
    assert_eq!(b.to_string(), "[Peg (0,0) W,Peg (1,0) B]");
    let s = parse_state("(S ((M (1,0))) ([Peg (0,0) W]))").unwrap();
    assert_eq!(s.to_string(), "S (M (1,0)) [Peg (0,0) W]");
}

#[test]
fn int_literals_as_read_takes_them() {
    assert_eq!(parse_position("(- 3,0x1)").unwrap(), pos(-3, 1));
    assert_eq!(parse_position("(0o7,0X1f)").unwrap(), pos(7, 31));
    assert_eq!(parse_position("(007,-0)").unwrap(), pos(7, 0));
    for bad in [
        "(-(3),0)", "(--3,0)", "(1.5,0)", "(1e3,0)", "(+1,0)", "(1,2,3)", "(1)",
    ] {
        assert!(parse_position(bad).is_err(), "{bad} should not read");
    }
    let e = parse_position("(99999999999999999999,0)").unwrap_err();
    assert!(e.message.contains("does not fit in a 64-bit Int"), "{e}");
    assert_eq!(
        parse_position("(-9223372036854775808,9223372036854775807)").unwrap(),
        pos(i64::MIN, i64::MAX)
    );
}

#[test]
fn constructor_arguments_need_their_parentheses() {
    assert!(parse_state("S M (1,0) [Peg (0,0) W]").is_err());
    assert!(parse_state("S (M (1,0)) [Peg (0,0) W]").is_ok());
    // A word must be the whole identifier.
    assert!(parse_peg("Peg (0,0) White").is_err());
    assert!(parse_peg("Pegs (0,0) W").is_err());
    assert!(parse_peg("peg (0,0) W").is_err());
}

#[test]
fn list_syntax_is_strict() {
    for bad in [
        "[Peg (0,0) W,]",
        "[,Peg (0,0) W]",
        "[Peg (0,0) W",
        "Peg (0,0) W",
        "[Peg (0,0) W] x",
    ] {
        assert!(parse_board(bad).is_err(), "{bad} should not read");
    }
}

#[test]
fn errors_say_line_and_column() {
    let e = parse_board("[Peg (0,0) W,\n Peg (1,0) X]").unwrap_err();
    assert_eq!((e.line, e.column), (2, 12));
    assert!(e.message.contains("expected 'W', 'B' or '('"), "{e}");
    assert!(e.message.contains("found 'X'"), "{e}");
    assert!(e.to_string().starts_with("2:12: "), "{e}");
    let e = parse_board("[Peg (0,0) W").unwrap_err();
    assert_eq!((e.line, e.column), (1, 13));
    assert!(e.message.contains("end of input"), "{e}");
}

#[test]
fn errors_render_with_the_source_line_and_a_caret() {
    let text = "[Peg (0,0) W,\n Peg (1,0) X]";
    let e = parse_board(text).unwrap_err();
    assert_eq!(e.offset, text.find('X').unwrap());
    assert_eq!(
        e.render("<stdin>", text).to_string(),
        "<stdin>:2:12: cannot read a board ([Peg (x,y) W, ...]): expected 'W', 'B' or '(', found 'X'\n\
         2 |  Peg (1,0) X]\n\
         \x20 |            ^"
    );
}

#[test]
fn boards_must_be_boards() {
    let e = parse_board("[Peg (0,0) W,\n  Peg (2,2) B]").unwrap_err();
    assert_eq!((e.line, e.column), (2, 3));
    assert!(e.message.contains("`Peg (2,2) B`"), "{e}");
    assert!(e.message.contains("not on the board"), "{e}");
    let e = parse_board("[Peg (0,0) W,Peg (1,0) B,Peg (0,0) B]").unwrap_err();
    assert_eq!((e.line, e.column), (1, 26));
    assert!(
        e.message.contains("`Peg (0,0) B`") && e.message.contains("`Peg (0,0) W`"),
        "{e}"
    );
    // States carry boards too.
    assert!(parse_states("[S (M (9,9)) [Peg (9,9) W]]").is_err());
}

#[test]
fn positions_from_the_command_line() {
    for (text, want) in [
        ("1,1", pos(1, 1)),
        ("(1,1)", pos(1, 1)),
        ("-2,1", pos(-2, 1)),
        (" ( -2 , 1 ) ", pos(-2, 1)),
        ("3 -1", pos(3, -1)),
    ] {
        assert_eq!(parse_position_arg(text).unwrap(), want, "{text}");
    }
    assert!(parse_position_arg("1").is_err());
    assert!(parse_position_arg("a,b").is_err());
}
