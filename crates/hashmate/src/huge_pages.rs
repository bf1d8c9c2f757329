//! Large tables on huge pages, where the system allows it.
//!
//! A probe of a large hash table (the transposition table, the hashed-perft
//! table) lands on a random address. With the usual 4 KB pages, a 256 MB
//! table spans 65,536 pages, far more than the CPU's TLB holds, so nearly
//! every probe pays a page-table walk on top of its cache miss. Backed by
//! 2 MB pages the same table needs 128 TLB entries.
//!
//! On Linux, transparent huge pages are often enabled only for memory that
//! asks for them (`/sys/kernel/mm/transparent_hugepage/enabled` set to
//! `madvise`); [`advise`] asks, with `madvise(MADV_HUGEPAGE)`, for an
//! allocation that has been reserved but not yet written (the kernel picks
//! the page size when a page is first touched). The advice is only a hint:
//! where it is refused, or on other systems, nothing changes but speed.
//!
//! [`TranspositionTable`](crate::tt::TranspositionTable) and
//! [`PerftTable`](crate::perft::PerftTable) already ask; an engine that
//! keeps large tables of its own can do the same:
//!
//! ```
//! let n = 1 << 20;
//! let mut table: Vec<u64> = Vec::with_capacity(n);
//! hashmate::huge_pages::advise(&table); // before the first write
//! table.resize(n, 0);
//! assert_eq!(table.len(), n);
//! ```

#[allow(unused_imports)]
use crate::prelude::*;
/// Ask for huge pages behind the reserved capacity of `v`. Call it after
/// reserving and before filling: pages already touched keep their size.
pub fn advise<T>(v: &Vec<T>) {
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        let bytes = v.capacity() * core::mem::size_of::<T>();
        let start = v.as_ptr() as usize;
        // madvise wants a page-aligned start; the allocator's header may
        // put the buffer a few bytes past a page boundary.
        let aligned = (start + PAGE - 1) & !(PAGE - 1);
        let end = start + bytes;
        if end > aligned + PAGE {
            // Safety: the range lies inside `v`'s own allocation (rounded
            // inwards to whole pages), and MADV_HUGEPAGE changes only how
            // the kernel backs those pages, never their contents or
            // validity; a failure leaves the mapping as it was.
            unsafe {
                libc::madvise(
                    aligned as *mut libc::c_void,
                    (end - aligned) & !(PAGE - 1),
                    libc::MADV_HUGEPAGE,
                );
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = v;
}
