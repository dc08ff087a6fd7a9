//! Shards: the unit a large run is split into for a cluster's own scheduler.
//!
//! On the command line a shard is `I/N` with `I` counted from 1, as Playwright and Jest count
//! them; `auto` reads the index and count from a Slurm job array or a Kubernetes Indexed Job.
//! Inside the simulator a shard is its 0-based index: shard `I/N` plays the games whose index
//! is `I - 1` modulo `N`.

use std::path::{Path, PathBuf};

/// Which slice of the games a run plays: games whose index is `index` modulo `count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// 0-based: shard `I/N` on the command line has index `I - 1`.
    pub index: u64,
    pub count: u64,
}

/// The environment variable that gives the shard count to a Kubernetes Indexed Job (which
/// only sets `JOB_COMPLETION_INDEX`), unless `--shard-count` does.
pub const SHARDS_VAR: &str = "PRINTPLAY_SHARDS";

impl Shard {
    pub const ALL: Shard = Shard { index: 0, count: 1 };

    /// The shard's number as the command line and the reports count it, from 1.
    pub fn number(self) -> u64 {
        self.index + 1
    }

    /// Parses `I/N` with `1 <= I <= N`.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || {
            format!("--shard takes I/N with I counted from 1 (1/4 ... 4/4), or auto, not `{text}`")
        };
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let (number, count): (u64, u64) = (
            i.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if number == 0 || number > count {
            return Err(bad());
        }
        Ok(Shard {
            index: number - 1,
            count,
        })
    }

    /// The shard a batch system's task is: a Slurm job array (`SLURM_ARRAY_TASK_ID` with
    /// `SLURM_ARRAY_TASK_MIN` and `SLURM_ARRAY_TASK_COUNT`, or `_MAX` and `_STEP`) or a
    /// Kubernetes Indexed Job (`JOB_COMPLETION_INDEX`, counted from 0, with the count from
    /// `count` (`--shard-count`) or [`SHARDS_VAR`]). `var` reads a variable.
    pub fn from_env(
        var: impl Fn(&str) -> Option<String>,
        count: Option<u64>,
    ) -> Result<Shard, String> {
        let slurm = var("SLURM_ARRAY_TASK_ID");
        let kubernetes = var("JOB_COMPLETION_INDEX");
        match (slurm, kubernetes) {
            (Some(_), Some(_)) => Err(
                "--shard auto: both SLURM_ARRAY_TASK_ID and JOB_COMPLETION_INDEX are set; give --shard I/N".into(),
            ),
            (Some(id), None) => slurm_shard(&var, &id, count),
            (None, Some(index)) => kubernetes_shard(&var, &index, count),
            (None, None) => Err(
                "--shard auto needs a Slurm job array (SLURM_ARRAY_TASK_ID) or a Kubernetes Indexed Job (JOB_COMPLETION_INDEX); neither is set".into(),
            ),
        }
    }

    /// The game indices of this shard among `games`.
    pub fn games(self, games: u64) -> impl Iterator<Item = u64> {
        (self.index..games).step_by(self.count as usize)
    }

    /// How many of `games` this shard plays.
    pub fn len(self, games: u64) -> u64 {
        games.saturating_sub(self.index).div_ceil(self.count)
    }
}

fn number(var_name: &str, text: &str) -> Result<u64, String> {
    text.trim()
        .parse()
        .map_err(|_| format!("--shard auto: {var_name} is `{text}`, not a whole number"))
}

fn read_number(var: &impl Fn(&str) -> Option<String>, name: &str) -> Result<Option<u64>, String> {
    var(name).map(|v| number(name, &v)).transpose()
}

/// A Slurm array task: its position among the array's ids (`MIN`, `MIN + STEP`, ...).
fn slurm_shard(
    var: &impl Fn(&str) -> Option<String>,
    id: &str,
    count: Option<u64>,
) -> Result<Shard, String> {
    let id = number("SLURM_ARRAY_TASK_ID", id)?;
    let min = read_number(var, "SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
    let step = read_number(var, "SLURM_ARRAY_TASK_STEP")?
        .unwrap_or(1)
        .max(1);
    let max = read_number(var, "SLURM_ARRAY_TASK_MAX")?;
    let count = match (count, read_number(var, "SLURM_ARRAY_TASK_COUNT")?, max) {
        (Some(n), _, _) | (None, Some(n), _) => n,
        (None, None, Some(max)) if max >= min => (max - min) / step + 1,
        _ => {
            return Err(
                "--shard auto: SLURM_ARRAY_TASK_ID is set but neither SLURM_ARRAY_TASK_COUNT nor SLURM_ARRAY_TASK_MAX".into(),
            );
        }
    };
    if id < min || !(id - min).is_multiple_of(step) {
        return Err(format!(
            "--shard auto: SLURM_ARRAY_TASK_ID {id} is not one of the array's ids from {min} in steps of {step}"
        ));
    }
    checked(
        (id - min) / step,
        count,
        &format!("SLURM_ARRAY_TASK_ID {id}"),
    )
}

/// A Kubernetes Indexed Job's pod: `JOB_COMPLETION_INDEX` counts from 0.
fn kubernetes_shard(
    var: &impl Fn(&str) -> Option<String>,
    index: &str,
    count: Option<u64>,
) -> Result<Shard, String> {
    let index = number("JOB_COMPLETION_INDEX", index)?;
    let count = match count {
        Some(n) => n,
        None => read_number(var, SHARDS_VAR)?.ok_or_else(|| {
            format!(
                "--shard auto: JOB_COMPLETION_INDEX is set but not the shard count; give --shard-count N or set {SHARDS_VAR} (the Job's completions)"
            )
        })?,
    };
    checked(index, count, &format!("JOB_COMPLETION_INDEX {index}"))
}

fn checked(index: u64, count: u64, what: &str) -> Result<Shard, String> {
    if count == 0 || index >= count {
        return Err(format!(
            "--shard auto: {what} makes shard {} of {count}, which does not exist",
            index + 1
        ));
    }
    Ok(Shard { index, count })
}

/// The shard files `merge` reads: each argument is a file, a folder (its `*.json` files) or a
/// glob pattern (`results/shard-*.json`, quoted so the shell leaves it alone). Sorted, each
/// file once.
pub fn shard_files(args: &[String]) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for arg in args {
        let path = Path::new(arg);
        if path.is_dir() {
            let found = json_files_in(path)?;
            if found.is_empty() {
                return Err(format!("{arg}: a folder with no .json files"));
            }
            files.extend(found);
        } else if path.exists() {
            files.push(path.to_path_buf());
        } else if arg.contains(['*', '?', '[']) {
            let found = glob_files(arg)?;
            if found.is_empty() {
                return Err(format!("{arg}: no file matches"));
            }
            files.extend(found);
        } else {
            return Err(format!("{arg}: no such file or folder"));
        }
    }
    files.sort();
    files.dedup();
    Ok(files)
}

fn json_files_in(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut files = Vec::new();
    for entry in entries {
        let path = entry.map_err(|e| format!("{}: {e}", dir.display()))?.path();
        if path.is_file() && path.extension().is_some_and(|e| e == "json") {
            files.push(path);
        }
    }
    Ok(files)
}

/// Files matching a pattern whose wildcards are in its last part (`results/shard-*.json`).
fn glob_files(pattern: &str) -> Result<Vec<PathBuf>, String> {
    let path = Path::new(pattern);
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if dir.to_string_lossy().contains(['*', '?', '[']) {
        return Err(format!(
            "{pattern}: wildcards only in the file name, not in its folders"
        ));
    }
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    let matcher = globset::Glob::new(&name)
        .map_err(|e| format!("{pattern}: not a valid pattern: {e}"))?
        .compile_matcher();
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut files = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| format!("{}: {e}", dir.display()))?;
        if matcher.is_match(entry.file_name()) && entry.path().is_file() {
            files.push(entry.path());
        }
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| {
            vars.iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn shards_count_from_one() {
        assert_eq!(Shard::parse("1/4"), Ok(Shard { index: 0, count: 4 }));
        assert_eq!(Shard::parse("4/4"), Ok(Shard { index: 3, count: 4 }));
        for bad in ["0/4", "5/4", "1/0", "x/2", "3"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn slurm_arrays_from_any_first_id() {
        let from_zero = [
            ("SLURM_ARRAY_TASK_ID", "3"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ];
        assert_eq!(
            Shard::from_env(env(&from_zero), None),
            Ok(Shard { index: 3, count: 4 })
        );
        let from_one = [
            ("SLURM_ARRAY_TASK_ID", "1"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_MAX", "8"),
        ];
        assert_eq!(
            Shard::from_env(env(&from_one), None),
            Ok(Shard { index: 0, count: 8 })
        );
        let stepped = [
            ("SLURM_ARRAY_TASK_ID", "4"),
            ("SLURM_ARRAY_TASK_MIN", "0"),
            ("SLURM_ARRAY_TASK_MAX", "6"),
            ("SLURM_ARRAY_TASK_STEP", "2"),
        ];
        assert_eq!(
            Shard::from_env(env(&stepped), None),
            Ok(Shard { index: 2, count: 4 })
        );
        let no_count = [("SLURM_ARRAY_TASK_ID", "1")];
        assert!(Shard::from_env(env(&no_count), None).is_err());
        let past_end = [
            ("SLURM_ARRAY_TASK_ID", "4"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ];
        let e = Shard::from_env(env(&past_end), None).unwrap_err();
        assert!(e.contains("shard 5 of 4"), "{e}");
    }

    #[test]
    fn kubernetes_indexed_jobs_need_a_count() {
        let pod = [("JOB_COMPLETION_INDEX", "0")];
        assert!(
            Shard::from_env(env(&pod), None)
                .unwrap_err()
                .contains("--shard-count")
        );
        assert_eq!(
            Shard::from_env(env(&pod), Some(3)),
            Ok(Shard { index: 0, count: 3 })
        );
        let with_var = [("JOB_COMPLETION_INDEX", "2"), (SHARDS_VAR, "3")];
        assert_eq!(
            Shard::from_env(env(&with_var), None),
            Ok(Shard { index: 2, count: 3 })
        );
        let both = [("JOB_COMPLETION_INDEX", "2"), ("SLURM_ARRAY_TASK_ID", "2")];
        assert!(Shard::from_env(env(&both), Some(3)).is_err());
        assert!(Shard::from_env(env(&[]), Some(3)).is_err());
    }
}
