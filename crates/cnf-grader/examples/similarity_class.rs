//! Writes the similarity benchmark's generated class to a folder, to time
//! the command on it: `cargo run --release --example similarity_class -- DIR N`,
//! or the class in clusters of copies of SOURCES sources:
//! `… -- DIR N SOURCES`.

#[path = "../benches/similarity/class.rs"]
mod class;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let (Some(dir), Some(n)) = (args.next(), args.next()) else {
        return Err("usage: similarity_class DIR N [SOURCES]".into());
    };
    let students = match args.next() {
        Some(sources) => class::clustered(n.parse()?, sources.parse()?, 7),
        None => class::class(n.parse()?, 7),
    };
    for student in students {
        let folder = std::path::Path::new(&dir).join(&student.name);
        std::fs::create_dir_all(&folder)?;
        for file in &student.files {
            std::fs::write(folder.join(&file.name), &file.text)?;
        }
    }
    Ok(())
}
