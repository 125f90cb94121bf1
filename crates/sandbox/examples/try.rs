//! Runs one shell command in a chosen backend and prints the result.
#![allow(clippy::print_stdout)]
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let kind: sandbox::BackendKind = a[1].parse().unwrap();
    let landlock = a[2] == "1";
    let s = sandbox::Sandbox::new(sandbox::Config {
        backend: Some(kind),
        landlock,
        ..Default::default()
    });
    let s = match s {
        Ok(s) => s,
        Err(e) => {
            println!("{e}");
            return;
        }
    };
    println!("{}", s.description());
    let r = s.run().unwrap();
    let r = r.execute(&a[3], std::time::Duration::from_secs(10), 1 << 20);
    println!("{:?}\n{}", r.outcome, r.stderr);
    if let sandbox::Outcome::Exited { stdout, .. } = &r.outcome {
        println!("{}", String::from_utf8_lossy(stdout));
    }
}
