//! Where the tables' bots think: one thread per core, taking turns in slices.
//!
//! A bot's move is a [`BotJob`] that thinks for at most [`SLICE`] at a time. The threads take
//! the waiting job that has thought the fewest slices so far (the oldest among equals), run
//! one slice of it, and put it back if it has not decided. A bot that decides within its first
//! slice (a heuristic, a random bot, a small search) therefore never waits behind a long
//! search for more than one slice of each thread, however many long searches run; long
//! searches share what is left in turn. Each move is bounded by the server's [`Budget`]: at
//! most so many iterations of search and so much thinking time, then it decides with what it
//! learned.

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use super::live::{BotDone, BotJob};
use crate::engine::Slice;

/// The longest a bot thinks before the thread turns to another waiting bot.
pub const SLICE: Duration = Duration::from_millis(20);

/// What a bot may spend on one move, server-wide (`serve --bot-iterations`, `--bot-seconds`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Budget {
    /// Search iterations a move at most; a seat's spec asking for more is refused.
    pub iterations: u32,
    /// Thinking time a move at most (the time the bot ran, not the time it waited).
    pub time: Duration,
}

/// Search iterations a bot may make a move unless `serve` says otherwise.
pub const DEFAULT_ITERATIONS: u32 = 20_000;
/// Seconds a bot may think a move unless `serve` says otherwise.
pub const DEFAULT_SECONDS: f64 = 5.0;

impl Default for Budget {
    fn default() -> Budget {
        Budget {
            iterations: DEFAULT_ITERATIONS,
            time: Duration::from_secs_f64(DEFAULT_SECONDS),
        }
    }
}

impl Budget {
    /// Whether a seat's bot spec stays within the budget; the refusal names the maximum.
    pub fn allows(&self, spec: &str) -> Result<(), String> {
        match crate::simulate::spec_iterations(spec) {
            Some(n) if n > self.iterations => Err(format!(
                "`{spec}` asks for {n} search iterations a move; this server allows at most {} (`serve --bot-iterations`)",
                self.iterations
            )),
            _ => Ok(()),
        }
    }
}

/// A bot's move waiting for a thread.
struct Waiting {
    /// Slices it has thought so far.
    slices: u32,
    /// When it arrived, in order.
    seq: u64,
    /// Thinking time so far.
    spent: Duration,
    job: BotJob,
    reply: tokio::sync::oneshot::Sender<BotDone>,
}

impl PartialEq for Waiting {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Waiting {}

impl PartialOrd for Waiting {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Waiting {
    /// The greatest (first taken) has the fewest slices, then the lowest `seq`.
    fn cmp(&self, other: &Self) -> Ordering {
        (other.slices, other.seq).cmp(&(self.slices, self.seq))
    }
}

#[derive(Default)]
struct Queue {
    waiting: BinaryHeap<Waiting>,
    seq: u64,
}

struct Shared {
    queue: Mutex<Queue>,
    ready: Condvar,
    budget: Budget,
}

/// The threads bots think on.
pub(crate) struct Thinkers(Arc<Shared>);

impl Thinkers {
    /// Starts `threads` threads (at least one).
    pub(crate) fn start(threads: usize, budget: Budget) -> Result<Thinkers, String> {
        let shared = Arc::new(Shared {
            queue: Mutex::new(Queue::default()),
            ready: Condvar::new(),
            budget,
        });
        for n in 0..threads.max(1) {
            let shared = shared.clone();
            std::thread::Builder::new()
                .name(format!("printplay-bot-{n}"))
                .spawn(move || work(&shared))
                .map_err(|e| format!("cannot start the threads bots think on: {e}"))?;
        }
        Ok(Thinkers(shared))
    }

    pub(crate) fn budget(&self) -> Budget {
        self.0.budget
    }

    /// The bot's decision, once it has thought its turn.
    pub(crate) async fn think(&self, job: BotJob) -> Result<BotDone, String> {
        let (reply, answer) = tokio::sync::oneshot::channel();
        {
            let mut queue = self
                .0
                .queue
                .lock()
                .map_err(|_| "the bots' queue is out of reach".to_string())?;
            queue.seq += 1;
            let seq = queue.seq;
            queue.waiting.push(Waiting {
                slices: 0,
                seq,
                spent: Duration::ZERO,
                job,
                reply,
            });
        }
        self.0.ready.notify_one();
        answer
            .await
            .map_err(|_| "the bot stopped thinking without a move (it failed)".to_string())
    }
}

/// One thread: a slice of the job first in line, again and again.
fn work(shared: &Shared) {
    loop {
        let mut next = {
            let Ok(mut queue) = shared.queue.lock() else {
                return;
            };
            loop {
                if let Some(w) = queue.waiting.pop() {
                    break w;
                }
                queue = match shared.ready.wait(queue) {
                    Ok(q) => q,
                    Err(_) => return,
                };
            }
        };
        let budget = shared.budget;
        let left = budget.time.saturating_sub(next.spent);
        let started = Instant::now();
        let slice = Slice {
            pause: Some(started + SLICE.min(left)),
            decide: left.is_zero(),
            iterations: budget.iterations,
        };
        let job = &mut next.job;
        // A bot that panics loses its move (the table says so), not the thread.
        let thought = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job.think(slice)));
        next.spent += started.elapsed();
        match thought {
            Ok(Some(done)) => {
                let _ = next.reply.send(done);
            }
            Ok(None) => {
                next.slices += 1;
                if let Ok(mut queue) = shared.queue.lock() {
                    queue.waiting.push(next);
                }
                shared.ready.notify_one();
            }
            Err(_) => {}
        }
    }
}
