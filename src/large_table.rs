//! Zero-initialised tables of many megabytes, backed by huge pages where
//! the system offers them.
//!
//! The transposition table is probed at random addresses all over its
//! hundreds of megabytes: with 4 KiB pages nearly every probe also misses
//! the TLB and waits for a page walk. Aligning the table to 2 MiB and asking
//! Linux for transparent huge pages (`madvise(MADV_HUGEPAGE)`; most systems
//! ship THP in `madvise` mode, where only such requests get them) turns
//! those walks into TLB hits. On Windows a table of 2 MiB or more is
//! allocated in large pages when the account holds the "Lock pages in
//! memory" right (`SeLockMemoryPrivilege`; see the README), and silently
//! falls back to an ordinary allocation when it does not, which is the
//! default. Elsewhere the table is an ordinary allocation with the same
//! alignment.

use std::alloc::{alloc, dealloc, handle_alloc_error, Layout};
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;

/// Alignment of every table: one x86-64 huge page.
const HUGE_PAGE: usize = 2 * 1024 * 1024;

/// Types for which the all-zero byte pattern is a valid value.
///
/// # Safety
/// Implement only for types whose every field is valid when zeroed
/// (integers, atomics of integers, arrays and structs of those).
pub unsafe trait Zeroable: Sized {}

/// A fixed-length, zero-initialised slice of `T` in its own huge-page
/// aligned allocation.
pub struct LargeTable<T: Zeroable> {
    ptr: NonNull<T>,
    len: usize,
    large_pages: bool,
}

// SAFETY: a LargeTable owns its elements like a Box<[T]> does, so it may
// cross threads and be shared exactly when T may.
unsafe impl<T: Zeroable + Send> Send for LargeTable<T> {}
// SAFETY: as above; shared access only hands out &T.
unsafe impl<T: Zeroable + Sync> Sync for LargeTable<T> {}

impl<T: Zeroable> LargeTable<T> {
    /// A table of `len` zeroed elements (`len` at least 1).
    pub fn new(len: usize) -> LargeTable<T> {
        let len = len.max(1);
        let layout = Self::layout(len);
        #[cfg(windows)]
        if layout.size() >= HUGE_PAGE {
            if let Some(ptr) = crate::sys_windows::alloc_large_pages(layout.size()) {
                if (ptr.as_ptr() as usize).is_multiple_of(layout.align()) {
                    // VirtualAlloc memory comes zeroed.
                    return LargeTable {
                        ptr: ptr.cast(),
                        len,
                        large_pages: true,
                    };
                }
                // SAFETY: just allocated there, never used.
                unsafe { crate::sys_windows::free_large_pages(ptr) };
            }
        }
        // SAFETY: `layout` never has a zero size (see `layout`).
        let raw = unsafe { alloc(layout) };
        let Some(ptr) = NonNull::new(raw.cast::<T>()) else {
            handle_alloc_error(layout)
        };
        advise_huge_pages(raw, layout.size());
        // SAFETY: `raw` is a fresh allocation of `layout.size()` bytes, and
        // zeroing it here (after the advice) is what faults the pages in,
        // as huge pages where granted.
        unsafe { std::ptr::write_bytes(raw, 0, layout.size()) };
        LargeTable {
            ptr,
            len,
            large_pages: false,
        }
    }

    /// Whether the table sits in Windows large pages (always false
    /// elsewhere: Linux's transparent huge pages are not visible here).
    pub fn in_large_pages(&self) -> bool {
        self.large_pages
    }

    fn layout(len: usize) -> Layout {
        let bytes = len
            .checked_mul(std::mem::size_of::<T>())
            .expect("table size fits in memory")
            .max(1);
        let align = HUGE_PAGE.max(std::mem::align_of::<T>());
        Layout::from_size_align(bytes, align).expect("table size fits in memory")
    }
}

impl<T: Zeroable> Deref for LargeTable<T> {
    type Target = [T];

    #[inline]
    fn deref(&self) -> &[T] {
        // SAFETY: `ptr` points to `len` initialised (zeroed, Zeroable)
        // elements owned by self, alive as long as the borrow of self.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> DerefMut for LargeTable<T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, and `&mut self` makes the access unique.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> Drop for LargeTable<T> {
    fn drop(&mut self) {
        // Zeroable types need no drop glue beyond freeing the memory.
        #[cfg(windows)]
        if self.large_pages {
            // SAFETY: from alloc_large_pages in `new`, freed only here.
            unsafe { crate::sys_windows::free_large_pages(self.ptr.cast()) };
            return;
        }
        // SAFETY: allocated in `new` with exactly this layout.
        unsafe { dealloc(self.ptr.as_ptr().cast(), Self::layout(self.len)) };
    }
}

#[cfg(target_os = "linux")]
fn advise_huge_pages(ptr: *mut u8, bytes: usize) {
    if bytes >= HUGE_PAGE {
        // SAFETY: madvise only changes how the kernel backs this range,
        // which is our own live allocation; a refusal (no THP) is harmless,
        // so the return value is ignored.
        unsafe { libc::madvise(ptr.cast(), bytes, libc::MADV_HUGEPAGE) };
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_ptr: *mut u8, _bytes: usize) {}

/// Asks the CPU to start loading the cache line holding `value`, so that
/// a read a little later finds it in cache. A hint: it changes no state
/// (and does nothing off x86-64).
#[inline(always)]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: prefetching has no architectural effect and cannot
        // fault; the pointer comes from a live reference anyway.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(value).cast::<i8>()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

/// Physical memory of this machine in MiB, where the system says.
#[cfg(unix)]
pub fn physical_memory_mb() -> Option<u64> {
    // SAFETY: sysconf only reads system configuration values.
    let (pages, page_size) = unsafe {
        (
            libc::sysconf(libc::_SC_PHYS_PAGES),
            libc::sysconf(libc::_SC_PAGESIZE),
        )
    };
    let bytes = u64::try_from(pages)
        .ok()?
        .checked_mul(u64::try_from(page_size).ok()?)?;
    (bytes > 0).then_some(bytes >> 20)
}

/// Physical memory of this machine in MiB, where the system says.
#[cfg(windows)]
pub fn physical_memory_mb() -> Option<u64> {
    crate::sys_windows::physical_memory_mb()
}

/// Physical memory of this machine in MiB, where the system says.
#[cfg(not(any(unix, windows)))]
pub fn physical_memory_mb() -> Option<u64> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};

    // SAFETY: an atomic integer is valid when zeroed.
    unsafe impl Zeroable for AtomicU64 {}

    #[test]
    fn starts_zeroed_aligned_and_writable() {
        for len in [1, 3, 300_000] {
            let mut table = LargeTable::<AtomicU64>::new(len);
            assert_eq!(table.len(), len);
            assert_eq!(table.as_ptr() as usize % HUGE_PAGE, 0);
            assert!(table.iter().all(|x| x.load(Ordering::Relaxed) == 0));
            *table[0].get_mut() = 5;
            table[len - 1].store(7, Ordering::Relaxed);
            assert_eq!(table[len - 1].load(Ordering::Relaxed), 7);
            if len > 1 {
                assert_eq!(table[0].load(Ordering::Relaxed), 5);
            }
        }
    }

    #[test]
    fn physical_memory_is_known_on_unix_and_windows() {
        if cfg!(any(unix, windows)) {
            let mb = physical_memory_mb().expect("the system reports its memory");
            assert!(mb >= 64, "{mb} MiB");
        }
    }

    #[test]
    fn large_pages_only_on_windows_and_only_for_big_tables() {
        assert!(!LargeTable::<AtomicU64>::new(8).in_large_pages());
        let big = LargeTable::<AtomicU64>::new(HUGE_PAGE / 8 * 3);
        if !cfg!(windows) {
            assert!(!big.in_large_pages());
        }
        assert_eq!(big.as_ptr() as usize % HUGE_PAGE, 0);
        assert!(big.iter().all(|x| x.load(Ordering::Relaxed) == 0));
        big[big.len() - 1].store(9, Ordering::Relaxed);
    }

    #[test]
    fn zero_length_requests_one_element() {
        assert_eq!(LargeTable::<AtomicU64>::new(0).len(), 1);
    }
}
