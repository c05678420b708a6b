//! The build cache shared by debug and release builds: where it lives, its lock, and the
//! fingerprints that key its entries.

use std::fs;
use std::path::{Path, PathBuf};

use crate::error::fail;

/// Where verilated models and compiled units are cached. The C++ is built the same way in
/// every Cargo profile (-O2, no debug info), so debug and release builds share one cache in
/// the target directory (`<target>/cdma-sim-cache`) instead of compiling everything twice;
/// Cargo's build-directory lock keeps two builds from writing it at once. Falls back to
/// OUT_DIR if the layout is not the usual `<target>/<profile>/build/<pkg>-<hash>/out`.
pub fn cache_root(out_dir: &Path) -> PathBuf {
    let profile_dir = out_dir.ancestors().nth(3);
    let is_build = out_dir
        .ancestors()
        .nth(2)
        .and_then(Path::file_name)
        .is_some_and(|n| n == "build");
    match (is_build, profile_dir.and_then(Path::parent)) {
        (true, Some(target)) => target.join("cdma-sim-cache"),
        _ => out_dir.join("cdma-sim-cache"),
    }
}

/// Exclusive use of the shared cache while this build script runs: Cargo locks each profile
/// directory separately, so a debug and a release build could otherwise verilate into the same
/// directory at once. A lock file holding our pid; a lock whose holder is gone (killed build)
/// is taken over.
pub struct CacheLock(PathBuf);

impl CacheLock {
    /// Creates `cache` and takes its lock, waiting while another live build holds it.
    pub fn acquire(cache: &Path) -> Self {
        fs::create_dir_all(cache)
            .unwrap_or_else(|e| fail(format!("cannot create {}: {e}", cache.display())));
        let path = cache.join("lock");
        let mut warned = false;
        loop {
            match fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&path)
            {
                Ok(mut f) => {
                    use std::io::Write as _;
                    let _ = write!(f, "{}", std::process::id());
                    return CacheLock(path);
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    if Self::is_stale(&path) {
                        let _ = fs::remove_file(&path);
                        continue;
                    }
                    if !warned {
                        println!(
                            "cargo:warning=cdma-sim: waiting for another build using {}",
                            cache.display()
                        );
                        warned = true;
                    }
                    std::thread::sleep(std::time::Duration::from_millis(500));
                }
                Err(e) => fail(format!("cannot create lock file {}: {e}", path.display())),
            }
        }
    }

    /// The holder's pid no longer runs (checked through /proc), or the file has had no pid
    /// for a minute.
    fn is_stale(path: &Path) -> bool {
        let pid = fs::read_to_string(path)
            .ok()
            .and_then(|s| s.trim().parse::<u32>().ok());
        match pid {
            Some(pid) => {
                Path::new("/proc/self").exists() && !Path::new(&format!("/proc/{pid}")).exists()
            }
            None => fs::metadata(path)
                .and_then(|m| m.modified())
                .ok()
                .and_then(|t| t.elapsed().ok())
                .is_some_and(|age| age.as_secs() > 60),
        }
    }
}

impl Drop for CacheLock {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.0);
    }
}

/// Hex fingerprint of some strings (a cache key, not a security property).
pub fn fingerprint(parts: &[&str]) -> String {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    parts.hash(&mut h);
    format!("{:016x}", h.finish())
}

#[cfg(test)]
mod tests;
