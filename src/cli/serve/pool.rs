//! The searches of every page, run by a fixed set of threads: at most `threads` searches at
//! once, at most `queue` more waiting for a thread, and any past that refused at once (the
//! server answers 503 with `Retry-After`). So however many pages, streams or clients ask, the
//! server's search threads and the memory of their transposition tables stay bounded.

use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread;

/// One search to run, with everything it needs.
pub type Job = Box<dyn FnOnce() + Send>;

/// Refused: every thread is busy and the queue is full.
#[derive(Debug)]
pub struct Busy;

/// A fixed pool of search threads with a bounded queue.
pub struct SearchPool {
    shared: Arc<Shared>,
    threads: usize,
    queue: usize,
}

struct Shared {
    state: Mutex<State>,
    wake: Condvar,
}

#[derive(Default)]
struct State {
    jobs: VecDeque<Job>,
    running: usize,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl SearchPool {
    /// A pool of `threads` threads (at least 1) and room for `queue` waiting jobs.
    ///
    /// # Errors
    /// When the operating system refuses a thread.
    pub fn new(threads: usize, queue: usize) -> std::io::Result<SearchPool> {
        let threads = threads.max(1);
        let shared = Arc::new(Shared {
            state: Mutex::new(State::default()),
            wake: Condvar::new(),
        });
        for i in 0..threads {
            let shared = Arc::clone(&shared);
            thread::Builder::new()
                .name(format!("search-{i}"))
                .spawn(move || loop {
                    let job = {
                        let mut state = shared.lock();
                        loop {
                            if let Some(job) = state.jobs.pop_front() {
                                state.running += 1;
                                break job;
                            }
                            state = shared
                                .wake
                                .wait(state)
                                .unwrap_or_else(PoisonError::into_inner);
                        }
                    };
                    // A search that panics must not take its thread with it: the pool would
                    // shrink by one for good.
                    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job));
                    shared.lock().running -= 1;
                })?;
        }
        Ok(SearchPool {
            shared,
            threads,
            queue,
        })
    }

    /// Queues `job`, to run as soon as a thread is free.
    ///
    /// # Errors
    /// [`Busy`] when every thread runs a job and `queue` more wait; the job is dropped.
    pub fn submit(&self, job: Job) -> Result<(), Busy> {
        let mut state = self.shared.lock();
        if state.jobs.len() + state.running >= self.threads + self.queue {
            return Err(Busy);
        }
        state.jobs.push_back(job);
        drop(state);
        self.shared.wake.notify_one();
        Ok(())
    }

    /// Searches running now.
    pub fn running(&self) -> usize {
        self.shared.lock().running
    }

    /// Searches waiting for a thread.
    pub fn queued(&self) -> usize {
        self.shared.lock().jobs.len()
    }

    /// The pool's threads: the most searches that run at once.
    pub fn threads(&self) -> usize {
        self.threads
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::channel;
    use std::time::Duration;

    /// One thread and a queue of one: the third job is refused while the first runs and the
    /// second waits, and accepted again once they are done.
    #[test]
    fn a_full_queue_refuses_jobs() {
        let pool = SearchPool::new(1, 1).unwrap();
        let (release, wait) = channel::<()>();
        let (started, is_started) = channel::<()>();
        pool.submit(Box::new(move || {
            started.send(()).unwrap();
            let _ = wait.recv();
        }))
        .unwrap();
        is_started.recv_timeout(Duration::from_secs(10)).unwrap();
        let (done, is_done) = channel::<u32>();
        let second = done.clone();
        pool.submit(Box::new(move || second.send(2).unwrap()))
            .unwrap();
        assert_eq!((pool.running(), pool.queued()), (1, 1));
        assert!(pool.submit(Box::new(|| {})).is_err());
        assert_eq!(pool.queued(), 1);
        release.send(()).unwrap();
        assert_eq!(is_done.recv_timeout(Duration::from_secs(10)).unwrap(), 2);
        pool.submit(Box::new(move || done.send(3).unwrap()))
            .unwrap();
        assert_eq!(is_done.recv_timeout(Duration::from_secs(10)).unwrap(), 3);
    }

    /// A job that panics leaves its thread serving the next.
    #[test]
    fn a_panicking_job_keeps_its_thread() {
        let pool = SearchPool::new(1, 4).unwrap();
        pool.submit(Box::new(|| panic!("a search that fails")))
            .unwrap();
        let (done, is_done) = channel();
        pool.submit(Box::new(move || done.send(()).unwrap()))
            .unwrap();
        is_done.recv_timeout(Duration::from_secs(10)).unwrap();
    }
}
