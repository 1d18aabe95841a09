//! `hayate match --config FILE`: the same settings as the command line, in TOML.
//!
//! ```toml
//! games = 20
//! tc = "byoyomi=1000"
//! concurrency = 2
//! out = "records"
//!
//! [[engine]]
//! name = "fsf"
//! cmd = "/usr/games/fairy-stockfish"
//! options = { Hash = 64, Threads = 1 }
//!
//! [[engine]]
//! cmd = "target/release/hayate"
//! tc = "byoyomi=500"
//! ```
//!
//! The file is turned into command-line words, so both forms share one parser: the words take
//! the place of `--config FILE` on the command line.

use toml::{Table, Value};

fn scalar(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Integer(i) => Some(i.to_string()),
        Value::Float(f) => Some(f.to_string()),
        Value::Boolean(b) => Some(b.to_string()),
        _ => None,
    }
}

/// The command-line words equivalent to a TOML configuration.
pub fn to_args(text: &str) -> Result<Vec<String>, String> {
    let table: Table = text.parse().map_err(|e: toml::de::Error| {
        // The error's own text quotes the whole line, which may be huge: name the place.
        let at = e.span().map_or(String::new(), |s| {
            let before = &text.as_bytes()[..s.start.min(text.len())];
            let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
            let column = before.iter().rev().take_while(|&&b| b != b'\n').count() + 1;
            format!(" at line {line}, column {column}")
        });
        format!("bad match configuration{at}: {}", e.message())
    })?;
    let mut args = Vec::new();
    for (key, value) in &table {
        match (key.as_str(), value) {
            ("engine", Value::Array(engines)) => {
                for e in engines {
                    let Value::Table(t) = e else {
                        return Err("each [[engine]] must be a table".into());
                    };
                    args.push("--engine".to_string());
                    for (k, v) in t {
                        match (k.as_str(), v) {
                            ("options", Value::Table(opts)) => {
                                for (name, ov) in opts {
                                    let ov = scalar(ov).ok_or_else(|| {
                                        format!("engine option {name} must be a plain value")
                                    })?;
                                    args.push(format!("option.{name}={ov}"));
                                }
                            }
                            (k @ ("cmd" | "name" | "dir" | "tc"), v) => {
                                let v = scalar(v)
                                    .ok_or_else(|| format!("engine {k} must be a plain value"))?;
                                if v.contains(char::is_whitespace) && k != "cmd" {
                                    return Err(format!("engine {k} '{v}' may not contain spaces"));
                                }
                                args.push(format!("{k}={v}"));
                            }
                            (other, _) => return Err(format!("unknown engine key '{other}'")),
                        }
                    }
                }
            }
            ("sprt", Value::Table(t)) => {
                args.push("--sprt".to_string());
                for (k, v) in t {
                    args.push(format!(
                        "{k}={}",
                        scalar(v).ok_or("sprt values must be numbers")?
                    ));
                }
            }
            // One file per --config: a file that named another (or itself) could recurse.
            ("config", _) => {
                return Err("a configuration file cannot name another with 'config'".into())
            }
            ("gauntlet" | "reuse", Value::Boolean(b)) => {
                if *b {
                    args.push(format!("--{key}"));
                }
            }
            (k, v) => {
                let v = scalar(v).ok_or_else(|| format!("'{k}' must be a plain value"))?;
                args.push(format!("--{}", k.replace('_', "-")));
                args.push(v);
            }
        }
    }
    Ok(args)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toml_becomes_arguments() {
        let args = to_args(
            r#"
            games = 20
            tc = "byoyomi=1000"
            max_plies = 256
            reuse = true
            sprt = { elo0 = 0, elo1 = 5, alpha = 0.05, beta = 0.05 }
            [[engine]]
            name = "fsf"
            cmd = "/usr/games/fairy-stockfish"
            options = { Hash = 64 }
            [[engine]]
            cmd = "target/release/hayate"
            tc = "byoyomi=500"
            "#,
        )
        .unwrap();
        let cfg = super::super::match_args::parse(&args).unwrap();
        assert_eq!(cfg.games, 20);
        assert_eq!(cfg.rules.max_plies, 256);
        assert!(cfg.reuse);
        assert_eq!(cfg.engines.len(), 2);
        assert_eq!(cfg.engines[0].name, "fsf");
        assert_eq!(
            cfg.engines[0].options,
            vec![("Hash".to_string(), "64".to_string())]
        );
        assert_eq!(
            cfg.engines[1].tc.map(|t| t.to_string()).as_deref(),
            Some("byoyomi=500")
        );
        assert!(cfg.sprt.is_some());
        assert!(to_args("games = [").is_err());
        assert!(to_args("[[engine]]\ncolour = 'red'").is_err());
        assert!(to_args("config = 'match.toml'").is_err());
        let deep = format!("a = {}{}", "[".repeat(10_000), "]".repeat(10_000));
        let e = to_args(&deep).unwrap_err();
        assert!(
            e.starts_with("bad match configuration at line 1, column ") && e.len() < 200,
            "{e}"
        );
    }
}
