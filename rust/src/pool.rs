//! Per-thread pools of reusable values: what a live-turn analysis allocated
//! is given back when it is dropped and taken by the next analysis on the
//! same thread, instead of being allocated again for every request.

use std::cell::RefCell;
use std::thread::LocalKey;

/// A pool: the values kept, at most `KEPT`.
pub type Pool<T> = RefCell<Vec<T>>;

/// Values kept per pool and thread.
pub const KEPT: usize = 4;
/// The largest hash set (in slots) worth keeping: larger ones are freed, so
/// that a thread does not hold on to what one very large input grew.
pub const KEPT_SLOTS: usize = 1 << 12;

/// A value from `pool`, if it keeps one.
pub fn take<T: 'static>(pool: &'static LocalKey<Pool<T>>) -> Option<T> {
    pool.try_with(|values| values.try_borrow_mut().ok().and_then(|mut v| v.pop()))
        .ok()
        .flatten()
}

/// Keep `value` in `pool`, unless it keeps `KEPT` already (then it is dropped).
pub fn give<T: 'static>(pool: &'static LocalKey<Pool<T>>, value: T) {
    let _ = pool.try_with(|values| {
        if let Ok(mut values) = values.try_borrow_mut() {
            if values.len() < KEPT {
                values.push(value);
            }
        }
    });
}
