//! The `hayate` program: the command line in [`hayate::cli`], and without arguments the USI
//! engine on stdin and stdout (how GUIs start it).

fn main() -> std::process::ExitCode {
    hayate::cli::main()
}
