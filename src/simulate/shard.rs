//! Shards: the unit a large run is split into for a cluster's own scheduler.
//!
//! On the command line a shard is `I/N` with `I` counted from 1, as Playwright and Jest count
//! them; `auto` reads the index and count from a Slurm job array or a Kubernetes Indexed Job.
//! Inside the simulator a shard is its 0-based index: shard `I/N` plays the games whose index
//! is `I - 1` modulo `N`.

use std::path::{Path, PathBuf};

use super::SimFile;

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

    /// The shard a batch system's task is: a Slurm job array's task (`SLURM_ARRAY_TASK_ID` is
    /// the shard's number, counted from 1 as in `--shard I/N`) or a Kubernetes Indexed Job's
    /// pod (`JOB_COMPLETION_INDEX`, counted from 0). The shard count is the run's, not the
    /// array's: `count` (`--shard-count`) or [`SHARDS_VAR`]. A Slurm array resubmitted for its
    /// failed tasks (`sbatch --array=5,12`) is a smaller array, so its own size and position
    /// say nothing of the run; the task id still names the shard. `var` reads a variable.
    pub fn from_env(
        var: impl Fn(&str) -> Option<String>,
        count: Option<u64>,
    ) -> Result<Shard, String> {
        let slurm = var("SLURM_ARRAY_TASK_ID");
        let kubernetes = var("JOB_COMPLETION_INDEX");
        let (what, index) = match (slurm, kubernetes) {
            (Some(_), Some(_)) => return Err(
                "--shard auto: both SLURM_ARRAY_TASK_ID and JOB_COMPLETION_INDEX are set; give --shard I/N".into(),
            ),
            (Some(id), None) => {
                let id = number("SLURM_ARRAY_TASK_ID", &id)?;
                if id == 0 {
                    return Err("--shard auto: SLURM_ARRAY_TASK_ID is 0, but array task ids are shard numbers counted from 1 (submit with --array=1-N)".into());
                }
                (format!("SLURM_ARRAY_TASK_ID {id}"), id - 1)
            }
            (None, Some(index)) => {
                let index = number("JOB_COMPLETION_INDEX", &index)?;
                (format!("JOB_COMPLETION_INDEX {index}"), index)
            }
            (None, None) => return Err(
                "--shard auto needs a Slurm job array (SLURM_ARRAY_TASK_ID) or a Kubernetes Indexed Job (JOB_COMPLETION_INDEX); neither is set".into(),
            ),
        };
        let count = match count {
            Some(n) => n,
            None => read_number(&var, SHARDS_VAR)?.ok_or_else(|| {
                format!(
                    "--shard auto: {what} says which shard, but not how many the run has; give --shard-count N or set {SHARDS_VAR} (the Slurm array's size, or the Job's completions)"
                )
            })?,
        };
        checked(index, count, &what)
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

/// The shard files in their order, save that the first is one that agrees with the most
/// others (the first such one): `merge` compares every file with the first, so a lone file of
/// another run is the one named, wherever it sorts.
pub fn majority_first(files: &[(String, SimFile)]) -> Vec<(String, SimFile)> {
    let agree = |a: &SimFile, b: &SimFile| {
        a.compare == b.compare
            && a.swept == b.swept
            && a.runs.len() == b.runs.len()
            && a.runs
                .iter()
                .zip(&b.runs)
                .all(|(x, y)| x.run_differences(y).is_empty())
    };
    let support = |i: usize| {
        files
            .iter()
            .filter(|(_, other)| agree(&files[i].1, other))
            .count()
    };
    let mut out = files.to_vec();
    // `max_by_key` keeps the last of equals: scan from the end so the first wins.
    if let Some(best) = (0..files.len()).rev().max_by_key(|&i| support(i)) {
        out[..=best].rotate_right(1);
    }
    out
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
    fn slurm_task_ids_are_shard_numbers() {
        let first = [
            ("SLURM_ARRAY_TASK_ID", "1"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_MAX", "8"),
            (SHARDS_VAR, "8"),
        ];
        assert_eq!(
            Shard::from_env(env(&first), None),
            Ok(Shard { index: 0, count: 8 })
        );
        // Failed tasks 5 and 12 of 32 resubmitted as `sbatch --array=5,12`: Slurm reports a
        // two-task array from 5 to 12, and task 12 is still shard 12 of 32.
        let rerun = [
            ("SLURM_ARRAY_TASK_ID", "12"),
            ("SLURM_ARRAY_TASK_MIN", "5"),
            ("SLURM_ARRAY_TASK_MAX", "12"),
            ("SLURM_ARRAY_TASK_COUNT", "2"),
            (SHARDS_VAR, "32"),
        ];
        assert_eq!(
            Shard::from_env(env(&rerun), None),
            Ok(Shard {
                index: 11,
                count: 32
            })
        );
        assert_eq!(
            Shard::from_env(env(&rerun[..4]), Some(32)),
            Ok(Shard {
                index: 11,
                count: 32
            })
        );
        // Without the run's count the array's own size would be a guess: refused.
        let e = Shard::from_env(env(&rerun[..4]), None).unwrap_err();
        assert!(e.contains(SHARDS_VAR) && e.contains("--shard-count"), "{e}");
        let zero = [("SLURM_ARRAY_TASK_ID", "0"), (SHARDS_VAR, "4")];
        let e = Shard::from_env(env(&zero), None).unwrap_err();
        assert!(e.contains("counted from 1"), "{e}");
        let past_end = [("SLURM_ARRAY_TASK_ID", "5"), (SHARDS_VAR, "4")];
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
