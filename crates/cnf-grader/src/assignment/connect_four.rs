//! The Connect Four assignment's parts: one program per part, its source
//! named `csce322assignment03partNN.hs`, compiled with the course's
//! `Helpers.hs` (the rest of its rules: `crate::submission` and the
//! `.cnf` fixtures of `crate::grade`).

/// The four functions, part 1 first (as `connect_core::Function` names them).
pub const FUNCTIONS: [&str; 4] = [
    "onePlayerOneMove",
    "onePlayerManyMoves",
    "manyPlayersOneMove",
    "manyPlayersManyMoves",
];

/// The file name of a part's source, e.g. `csce322assignment03part01.hs`.
pub fn part_file(part: u8) -> String {
    format!("{}.hs", part_exe(part))
}

/// The name of a part's program, e.g. `csce322assignment03part01`.
pub fn part_exe(part: u8) -> String {
    format!("csce322assignment03part{part:02}")
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_functions_are_connect_cores() {
        let names: Vec<&str> = connect_core::Function::ALL
            .iter()
            .map(|f| f.name())
            .collect();
        assert_eq!(names, super::FUNCTIONS);
    }
}
