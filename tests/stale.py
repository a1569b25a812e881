"""The map view stays right when the map changes: memory that went away
(munmap, raw SYS_munmap, mprotect, raw SYS_mprotect, free of a large block
(with the default quarantine its range stays reserved: use-after-free),
dlclose) is reported; memory that appeared or became accessible behind the
library's back (raw mmap, inline-asm syscalls, malloc's own mmap and brk,
mremap, dlopen, thread stacks) never gives a false report."""
from rwctest import ok, done, victim, check_report, check_clean

GONE = [
    ("stale_munmap", "buf-unmapped"),
    ("stale_raw_munmap", "buf-unmapped"),
    ("stale_mprotect", "buf-not-writable"),
    ("stale_raw_mprotect", "buf-not-writable"),
    ("stale_free", "use-after-free"),  # a freed large block: its range kept reserved, PROT_NONE
    ("stale_dlclose", "buf-unmapped"),
]
for entry, problem in GONE:
    r = victim(entry, "bad")
    check_report(r, entry, "read", problem, 0, 9)
    check_clean(entry)
# Without the quarantine glibc unmaps the freed large block at once.
r = victim("stale_free", "bad", env={"RWCHECK_QUARANTINE": "0"})
check_report(r, "stale_free (RWCHECK_QUARANTINE=0)", "read", "buf-unmapped", 0, 9)
check_clean("stale_free", name="stale_free good (RWCHECK_QUARANTINE=0)", env={"RWCHECK_QUARANTINE": "0"})

# A heap grown (taken as news), then trimmed by free: above the new break
# is nothing.  Without the quarantine, so that the frees reach glibc.
Q0 = {"RWCHECK_QUARANTINE": "0"}
r = victim("stale_trim", "bad", env=Q0)
check_report(r, "stale_trim (RWCHECK_QUARANTINE=0)", "read", "buf-unmapped", 0, 9)
check_clean("stale_trim", name="stale_trim good (RWCHECK_QUARANTINE=0)", env=Q0)

NEW = ["new_raw_mmap", "new_asm_mmap", "new_asm_mprotect", "new_malloc_large", "new_brk",
       "new_mremap", "new_dlopen", "new_thread_stack"]
for entry in NEW:
    check_clean(entry, name=entry)
# The same with the ioctl(PROCMAP_QUERY) confirmation switched off: the
# fallback parser must agree.
for entry in ["new_asm_mmap", "new_thread_stack"]:
    check_clean(entry, name=entry + " (parser fallback)", env={"RWCHECK_MAPS_QUERY": "parse"})
r = victim("read", "bad", env={"RWCHECK_MAPS_QUERY": "parse"})
check_report(r, "read bad (parser fallback)", "read", "buf-unmapped", 100, 4095)
done()
