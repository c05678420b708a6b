use super::*;

#[test]
fn fingerprints_are_stable_and_see_every_part() {
    let a = fingerprint(&["x", "y"]);
    assert_eq!(a.len(), 16);
    assert!(a.chars().all(|c| c.is_ascii_hexdigit()));
    assert_eq!(a, fingerprint(&["x", "y"]));
    assert_ne!(a, fingerprint(&["xy"]));
    assert_ne!(a, fingerprint(&["x", "z"]));
}

#[test]
fn cache_is_in_the_target_dir_for_the_usual_layout() {
    let out = Path::new("/t/target/debug/build/cdma-sim-0123/out");
    assert_eq!(cache_root(out), Path::new("/t/target/cdma-sim-cache"));
    let odd = Path::new("/somewhere/out");
    assert_eq!(cache_root(odd), Path::new("/somewhere/out/cdma-sim-cache"));
}

#[test]
fn lock_is_held_until_dropped_and_a_dead_holder_is_stale() {
    let dir = std::env::temp_dir().join(format!("cdma-simgen-lock-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    {
        let _lock = CacheLock::acquire(&dir);
        let pid = fs::read_to_string(dir.join("lock")).unwrap();
        assert_eq!(pid, std::process::id().to_string());
        assert!(!CacheLock::is_stale(&dir.join("lock")));
    }
    assert!(!dir.join("lock").exists());
    if Path::new("/proc/self").exists() {
        // Pids are below 2^22 on Linux.
        fs::write(dir.join("lock"), "4294967295").unwrap();
        assert!(CacheLock::is_stale(&dir.join("lock")));
    }
    let _ = fs::remove_dir_all(&dir);
}
