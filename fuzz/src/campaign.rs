//! A campaign: `frames` damaged frames decoded on worker threads under a watchdog, counted by
//! mutation and class; the cases of the failure classes shrunk and kept.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::minimize::minimize;
use crate::{classify, Class, Decoder, Mutation, SeedFrame};

/// What to run.
#[derive(Clone, Debug)]
pub struct Campaign {
    /// Seed of the case generators (case `i` is drawn from stream `i` of this seed).
    pub seed: u64,
    /// Damaged frames to decode.
    pub frames: u64,
    /// Worker threads (each decodes the cases `i` with `i % threads` its own number).
    pub threads: usize,
    /// A decode that has not returned after this long is a hang; the campaign then stops.
    pub hang_after: Duration,
    /// Classes that are failures: their cases are shrunk and kept (panics and hangs always
    /// are; silent corruptions are when the frames carry an integrity check).
    pub failures: Vec<Class>,
    /// Failure cases kept at most (the counts go on).
    pub keep: usize,
}

impl Default for Campaign {
    fn default() -> Self {
        Campaign {
            seed: 1,
            frames: 1_000_000,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            hang_after: Duration::from_secs(10),
            failures: vec![Class::Panic, Class::Hang],
            keep: 20,
        }
    }
}

/// One failure case.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// Case number (replay it with [`case`]).
    pub index: u64,
    /// Its seed frame's label.
    pub seed_label: String,
    /// The damage.
    pub mutation: Mutation,
    /// What the decoder did.
    pub class: Class,
    /// The damaged frame, shrunk (hangs are kept as drawn).
    pub frame: Vec<u8>,
    /// The data of its seed frame.
    pub data: Vec<u8>,
}

/// The campaign's result.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Cases decoded (fewer than asked if a hang stopped the campaign).
    pub frames: u64,
    /// Cases per (mutation, class).
    pub counts: BTreeMap<(Mutation, Class), u64>,
    /// The failure cases kept.
    pub failures: Vec<Outcome>,
}

impl Report {
    /// Cases of `class`, all mutations.
    pub fn count(&self, class: Class) -> u64 {
        self.counts
            .iter()
            .filter(|((_, c), _)| *c == class)
            .map(|(_, n)| n)
            .sum()
    }

    /// Cases of `mutation`, all classes.
    pub fn of_mutation(&self, mutation: Mutation) -> u64 {
        self.counts
            .iter()
            .filter(|((m, _), _)| *m == mutation)
            .map(|(_, n)| n)
            .sum()
    }
}

/// Case `index` of a campaign seeded `seed` over `seeds`: which seed frame, the damage, and
/// the damaged frame.
pub fn case(seeds: &[SeedFrame], seed: u64, index: u64) -> (usize, Mutation, Vec<u8>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(index);
    let s = rng.gen_range(0..seeds.len());
    let m = Mutation::draw(&mut rng);
    let mut frame = seeds[s].frame.clone();
    m.apply(&mut frame, &mut rng);
    (s, m, frame)
}

/// One worker's tallies.
#[derive(Default)]
struct Tally {
    counts: BTreeMap<(Mutation, Class), u64>,
    failures: Vec<Outcome>,
}

/// Runs `campaign` on `decoder` over `seeds`; `progress` is called from the calling thread
/// with the cases done so far, about ten times a second.
///
/// A hang cannot be interrupted: the hung worker is left behind (the process should end
/// soon after, as `cdma fuzz` does), the case recorded as a hang and the campaign stopped.
///
/// # Panics
/// If `seeds` is empty.
pub fn run(
    decoder: Arc<dyn Decoder + Send>,
    seeds: Arc<Vec<SeedFrame>>,
    campaign: &Campaign,
    progress: &dyn Fn(u64),
) -> Report {
    assert!(!seeds.is_empty(), "a campaign needs seed frames");
    let threads = campaign.threads.max(1) as u64;
    // Per worker: cases done, and the case in hand (u64::MAX: none).
    let done: Arc<Vec<AtomicU64>> = Arc::new((0..threads).map(|_| AtomicU64::new(0)).collect());
    let current: Arc<Vec<AtomicU64>> =
        Arc::new((0..threads).map(|_| AtomicU64::new(u64::MAX)).collect());
    // Per worker: its tallies, shared so that a hang still reports the others' counts.
    let tallies: Arc<Vec<Mutex<Tally>>> =
        Arc::new((0..threads).map(|_| Mutex::new(Tally::default())).collect());
    let mut handles = Vec::new();
    for w in 0..threads {
        let (decoder, seeds, done, current, tallies) = (
            decoder.clone(),
            seeds.clone(),
            done.clone(),
            current.clone(),
            tallies.clone(),
        );
        let c = campaign.clone();
        handles.push(std::thread::spawn(move || {
            let mut i = w;
            let mut kept = 0;
            while i < c.frames {
                current[w as usize].store(i, Ordering::SeqCst);
                let (s, m, frame) = case(&seeds, c.seed, i);
                let class = classify(decoder.as_ref(), &frame, &seeds[s].data);
                let failure = c.failures.contains(&class) && kept < c.keep;
                // Shrunk outside the lock: the watchdog reads the tallies of a hung worker.
                let outcome = failure.then(|| {
                    let sf = &seeds[s];
                    Outcome {
                        index: i,
                        seed_label: sf.label.clone(),
                        mutation: m,
                        class,
                        frame: minimize(decoder.as_ref(), &sf.frame, &sf.data, &frame, class),
                        data: sf.data.clone(),
                    }
                });
                let mut t = tallies[w as usize].lock().expect("tally lock");
                *t.counts.entry((m, class)).or_default() += 1;
                if let Some(o) = outcome {
                    t.failures.push(o);
                    kept += 1;
                }
                drop(t);
                done[w as usize].fetch_add(1, Ordering::SeqCst);
                i += threads;
            }
            current[w as usize].store(u64::MAX, Ordering::SeqCst);
        }));
    }
    // Watchdog: a worker whose count has not moved for `hang_after` is hung.
    let mut last: Vec<(u64, Instant)> = (0..threads).map(|_| (0, Instant::now())).collect();
    let mut hung: Option<u64> = None;
    while handles.iter().any(|h| !h.is_finished()) {
        std::thread::sleep(Duration::from_millis(100));
        progress(done.iter().map(|d| d.load(Ordering::SeqCst)).sum());
        for (w, (n, at)) in last.iter_mut().enumerate() {
            let now = done[w].load(Ordering::SeqCst);
            let cur = current[w].load(Ordering::SeqCst);
            if now != *n || cur == u64::MAX {
                *n = now;
                *at = Instant::now();
            } else if at.elapsed() >= campaign.hang_after {
                hung = Some(cur);
            }
        }
        if hung.is_some() {
            break;
        }
    }
    let mut report = Report::default();
    if hung.is_none() {
        for h in handles {
            h.join()
                .expect("a fuzz worker never panics: decoder panics are caught");
        }
    }
    // With a hang, the hung worker's tally lock is free (it is held only between a decode
    // and its count), so every count so far is read.
    for t in tallies.iter() {
        let t = t.lock().expect("tally lock");
        for (k, n) in &t.counts {
            *report.counts.entry(*k).or_default() += n;
        }
        report.failures.extend(t.failures.iter().cloned());
    }
    if let Some(i) = hung {
        let (s, m, frame) = case(&seeds, campaign.seed, i);
        *report.counts.entry((m, Class::Hang)).or_default() += 1;
        report.failures.push(Outcome {
            index: i,
            seed_label: seeds[s].label.clone(),
            mutation: m,
            class: Class::Hang,
            frame,
            data: seeds[s].data.clone(),
        });
    }
    report.failures.sort_by_key(|o| o.index);
    report.failures.truncate(campaign.keep);
    report.frames = report.counts.values().sum();
    progress(report.frames);
    report
}
