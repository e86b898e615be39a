//! The few Windows system calls gyoku makes beyond the standard library,
//! declared by hand: physical memory for the hash-size guard, large pages
//! for the transposition table, and the ANSI code page for option values a
//! GUI sends in Shift_JIS. Eight functions of kernel32 and advapi32 do not
//! justify a bindings crate.

use std::ffi::c_void;
use std::ptr::{null, null_mut, NonNull};

type Bool = i32;
type Handle = *mut c_void;

/// `MEMORYSTATUSEX`.
#[repr(C)]
struct MemoryStatusEx {
    length: u32,
    memory_load: u32,
    total_phys: u64,
    avail_phys: u64,
    total_page_file: u64,
    avail_page_file: u64,
    total_virtual: u64,
    avail_virtual: u64,
    avail_extended_virtual: u64,
}

/// `LUID`.
#[repr(C)]
#[derive(Clone, Copy)]
struct Luid {
    low_part: u32,
    high_part: i32,
}

/// `LUID_AND_ATTRIBUTES`.
#[repr(C)]
#[derive(Clone, Copy)]
struct LuidAndAttributes {
    luid: Luid,
    attributes: u32,
}

/// `TOKEN_PRIVILEGES` with room for one privilege.
#[repr(C)]
struct TokenPrivileges {
    privilege_count: u32,
    privileges: [LuidAndAttributes; 1],
}

const TOKEN_ADJUST_PRIVILEGES: u32 = 0x0020;
const TOKEN_QUERY: u32 = 0x0008;
const SE_PRIVILEGE_ENABLED: u32 = 0x0002;
const ERROR_SUCCESS: u32 = 0;
const MEM_COMMIT: u32 = 0x1000;
const MEM_RESERVE: u32 = 0x2000;
const MEM_RELEASE: u32 = 0x8000;
const MEM_LARGE_PAGES: u32 = 0x2000_0000;
const PAGE_READWRITE: u32 = 0x04;
const CP_ACP: u32 = 0;
const MB_ERR_INVALID_CHARS: u32 = 0x08;

#[link(name = "kernel32")]
extern "system" {
    fn GlobalMemoryStatusEx(buffer: *mut MemoryStatusEx) -> Bool;
    fn GetCurrentProcess() -> Handle;
    fn CloseHandle(handle: Handle) -> Bool;
    fn GetLastError() -> u32;
    fn GetLargePageMinimum() -> usize;
    fn VirtualAlloc(address: *mut c_void, size: usize, kind: u32, protect: u32) -> *mut c_void;
    fn VirtualFree(address: *mut c_void, size: usize, kind: u32) -> Bool;
    fn MultiByteToWideChar(
        code_page: u32,
        flags: u32,
        text: *const u8,
        text_len: i32,
        wide: *mut u16,
        wide_len: i32,
    ) -> i32;
}

#[link(name = "advapi32")]
extern "system" {
    fn OpenProcessToken(process: Handle, access: u32, token: *mut Handle) -> Bool;
    fn LookupPrivilegeValueW(system: *const u16, name: *const u16, luid: *mut Luid) -> Bool;
    fn AdjustTokenPrivileges(
        token: Handle,
        disable_all: Bool,
        new_state: *const TokenPrivileges,
        previous_len: u32,
        previous_state: *mut TokenPrivileges,
        return_len: *mut u32,
    ) -> Bool;
}

/// Physical memory in MiB (`GlobalMemoryStatusEx`).
pub fn physical_memory_mb() -> Option<u64> {
    let mut status = MemoryStatusEx {
        length: std::mem::size_of::<MemoryStatusEx>() as u32,
        memory_load: 0,
        total_phys: 0,
        avail_phys: 0,
        total_page_file: 0,
        avail_page_file: 0,
        total_virtual: 0,
        avail_virtual: 0,
        avail_extended_virtual: 0,
    };
    // SAFETY: `status` is a writable MEMORYSTATUSEX with its length field
    // set, as the call requires; it only writes into that struct.
    let ok = unsafe { GlobalMemoryStatusEx(&mut status) } != 0;
    (ok && status.total_phys > 0).then_some(status.total_phys >> 20)
}

/// `bytes` (rounded up to the large-page size) of zeroed memory in large
/// pages, aligned to the large-page size, or `None` where Windows says no:
/// the account lacks the "Lock pages in memory" right
/// (`SeLockMemoryPrivilege`, which no account has by default), or memory
/// is too fragmented for that many contiguous 2 MiB pages. Free the result
/// with [`free_large_pages`].
pub fn alloc_large_pages(bytes: usize) -> Option<NonNull<u8>> {
    // SAFETY: takes no arguments; 0 means the processor has no large pages.
    let page = unsafe { GetLargePageMinimum() };
    if page == 0 {
        return None;
    }
    let size = bytes.max(1).checked_next_multiple_of(page)?;
    with_lock_memory_privilege(|| {
        // SAFETY: a fresh reservation at an address of the system's
        // choosing touches no existing memory; failure returns null.
        let raw = unsafe {
            VirtualAlloc(
                null_mut(),
                size,
                MEM_RESERVE | MEM_COMMIT | MEM_LARGE_PAGES,
                PAGE_READWRITE,
            )
        };
        NonNull::new(raw.cast::<u8>())
    })
}

/// Releases memory from [`alloc_large_pages`].
///
/// # Safety
/// `ptr` must come from [`alloc_large_pages`], be freed once, and not be
/// used afterwards.
pub unsafe fn free_large_pages(ptr: NonNull<u8>) {
    // SAFETY: `ptr` is the base of a VirtualAlloc region (the caller's
    // contract); MEM_RELEASE with size 0 frees the whole region.
    unsafe { VirtualFree(ptr.as_ptr().cast(), 0, MEM_RELEASE) };
}

/// Runs `allocate` with `SeLockMemoryPrivilege` enabled in this process's
/// token, then puts the token back as it was. `None` without running it
/// when the account does not hold the privilege.
fn with_lock_memory_privilege<T>(allocate: impl FnOnce() -> Option<T>) -> Option<T> {
    let mut token: Handle = null_mut();
    // SAFETY: GetCurrentProcess returns a pseudo-handle that needs no
    // closing; `token` is a valid place for the opened handle.
    let opened = unsafe {
        OpenProcessToken(
            GetCurrentProcess(),
            TOKEN_ADJUST_PRIVILEGES | TOKEN_QUERY,
            &mut token,
        )
    };
    if opened == 0 {
        return None;
    }
    let name: Vec<u16> = "SeLockMemoryPrivilege\0".encode_utf16().collect();
    let mut luid = Luid {
        low_part: 0,
        high_part: 0,
    };
    let mut result = None;
    // SAFETY: `name` is a NUL-terminated UTF-16 string, a null system name
    // means this machine, and `luid` is a valid place for the answer.
    if unsafe { LookupPrivilegeValueW(null(), name.as_ptr(), &mut luid) } != 0 {
        let enable = TokenPrivileges {
            privilege_count: 1,
            privileges: [LuidAndAttributes {
                luid,
                attributes: SE_PRIVILEGE_ENABLED,
            }],
        };
        let mut previous = TokenPrivileges {
            privilege_count: 0,
            privileges: [LuidAndAttributes {
                luid,
                attributes: 0,
            }],
        };
        let mut previous_len = 0u32;
        // SAFETY: `token` is open with the adjust and query rights (the
        // latter for the previous state); `enable` holds one privilege and
        // `previous` has room for the one entry that can change.
        let adjusted = unsafe {
            AdjustTokenPrivileges(
                token,
                0,
                &enable,
                std::mem::size_of::<TokenPrivileges>() as u32,
                &mut previous,
                &mut previous_len,
            )
        } != 0;
        // AdjustTokenPrivileges also succeeds when the account lacks the
        // privilege; the last error (ERROR_NOT_ALL_ASSIGNED) tells.
        // SAFETY: takes no arguments; reads this thread's last error.
        if adjusted && unsafe { GetLastError() } == ERROR_SUCCESS {
            result = allocate();
            // SAFETY: as above; restoring needs no previous-state buffer
            // (null pointers with length 0).
            unsafe { AdjustTokenPrivileges(token, 0, &previous, 0, null_mut(), null_mut()) };
        }
    }
    // SAFETY: `token` was opened above and is closed once.
    unsafe { CloseHandle(token) };
    result
}

/// `bytes` decoded from the system's ANSI code page (932, Shift_JIS, on
/// Japanese Windows), or `None` where they are not valid text in it.
pub fn decode_ansi(bytes: &[u8]) -> Option<String> {
    if bytes.is_empty() {
        return Some(String::new());
    }
    let len = i32::try_from(bytes.len()).ok()?;
    // SAFETY: `bytes` is readable for `len` bytes; a null output buffer
    // with length 0 asks only for the UTF-16 length needed.
    let wide_len = unsafe {
        MultiByteToWideChar(
            CP_ACP,
            MB_ERR_INVALID_CHARS,
            bytes.as_ptr(),
            len,
            null_mut(),
            0,
        )
    };
    if wide_len <= 0 {
        return None;
    }
    let mut wide = vec![0u16; wide_len as usize];
    // SAFETY: as above, and `wide` is writable for `wide_len` elements.
    let written = unsafe {
        MultiByteToWideChar(
            CP_ACP,
            MB_ERR_INVALID_CHARS,
            bytes.as_ptr(),
            len,
            wide.as_mut_ptr(),
            wide_len,
        )
    };
    if written <= 0 {
        return None;
    }
    wide.truncate(written as usize);
    String::from_utf16(&wide).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn physical_memory_is_known() {
        let mb = physical_memory_mb().expect("GlobalMemoryStatusEx answers");
        assert!(mb >= 64, "{mb} MiB");
    }

    #[test]
    fn large_pages_when_granted_are_zeroed_aligned_and_writable() {
        let bytes = 5 << 20;
        // Most accounts lack the privilege: then there is nothing to check.
        let Some(ptr) = alloc_large_pages(bytes) else {
            return;
        };
        // SAFETY: GetLargePageMinimum takes no arguments.
        let page = unsafe { GetLargePageMinimum() };
        assert_eq!(ptr.as_ptr() as usize % page, 0);
        // SAFETY: the region holds at least `bytes` bytes, committed,
        // zeroed and writable, and is ours until freed below.
        let slice = unsafe { std::slice::from_raw_parts_mut(ptr.as_ptr(), bytes) };
        assert!(slice.iter().all(|&b| b == 0));
        slice[bytes - 1] = 7;
        // SAFETY: from alloc_large_pages, freed once, not used afterwards.
        unsafe { free_large_pages(ptr) };
    }

    #[link(name = "kernel32")]
    extern "system" {
        fn GetACP() -> u32;
    }

    #[test]
    fn shift_jis_decodes_where_it_is_the_ansi_code_page() {
        // SAFETY: takes no arguments.
        if unsafe { GetACP() } == 932 {
            // "評価.bin" in Shift_JIS.
            let sjis = b"\x95\x5d\x89\xbf.bin";
            assert_eq!(decode_ansi(sjis).as_deref(), Some("評価.bin"));
        }
    }

    #[test]
    fn ascii_decodes_in_any_code_page() {
        assert_eq!(decode_ansi(b"").as_deref(), Some(""));
        assert_eq!(
            decode_ansi(b"setoption name EvalFile value nn.bin").as_deref(),
            Some("setoption name EvalFile value nn.bin")
        );
    }
}
