/* common.h: types shared by every part of librwcheck: problems, the
 * description of one interposed call, the export macro.
 * Header only; nothing here allocates or locks. */
#ifndef RWC_COMMON_H
#define RWC_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/uio.h>

#define RWC_EXPORT __attribute__((visibility("default")))
/* What a process start touches: the state the constructors write, kept
 * in .data on the page the loader has written anyway (relocations) rather
 * than on .bss pages of its own, and the code the constructors and the
 * destructor run, kept together at the start of .text.  Each page a start
 * touches is a page fault (~1 us on a usual machine, 10-15 us in a VM
 * that shadows page tables): make startab and bench/run.py measure it. */
#define RWC_START_DATA __attribute__((section(".data.rwc_start")))
#define RWC_START_CODE __attribute__((section(".text.startup.rwc")))
/* What a fork() child runs before the program goes on, kept together
 * with the start code (the child's first touch of each code page it does
 * not share faults it in: the start code and the PLT it touches anyway). */
#define RWC_FORK_CODE __attribute__((section(".text.hot.rwc_fork")))
#define RWC_LIKELY(x) __builtin_expect(!!(x), 1)
#define RWC_UNLIKELY(x) __builtin_expect(!!(x), 0)

/* What the kernel will do with the user's memory. */
enum rwc_need {
	RWC_NEED_WRITE = 1, /* read-like calls store into the buffer */
	RWC_NEED_READ = 2,  /* write-like calls load from it */
};

/* The fixed problem vocabulary (DESIGN.md). */
enum rwc_problem {
	RWC_OK = 0,
	RWC_BUF_UNMAPPED,
	RWC_BUF_NOT_WRITABLE,
	RWC_BUF_NOT_READABLE,
	RWC_IOV_ARRAY_BAD,
	RWC_OFFSET_NEGATIVE,
	RWC_OFFSET_OVERFLOW,
	RWC_COUNT_TOO_LARGE,
	RWC_IOVCNT_INVALID,
	RWC_IOV_LEN_OVERFLOW,
	RWC_HEAP_OVERFLOW,
	RWC_STACK_OVERFLOW,
	RWC_GLOBAL_OVERFLOW,
	RWC_USE_AFTER_FREE,
	RWC_PROBLEM_COUNT
};

const char *rwc_problem_name(enum rwc_problem p);

/* The shape of an interposed call: which arguments it has. */
enum rwc_shape {
	RWC_SHAPE_BUF,  /* fd, buf, count */
	RWC_SHAPE_IOV,  /* fd, iov, iovcnt */
	RWC_SHAPE_MSG,  /* fd, msghdr */
	RWC_SHAPE_MMSG, /* fd, mmsghdr array (msg), vlen (iovcnt) */
	RWC_SHAPE_XFER, /* fd -> fd2, offset pointers, count: sendfile, splice, copy_file_range */
	RWC_SHAPE_PVM,  /* pid (fd), local iov/iovcnt, remote riov/riovcnt */
	RWC_SHAPE_ARGS, /* only the argument list (args/nargs): readlink, poll, ... */
};

/* One argument of a call that hands the kernel a capacity (the list
 * args/nargs of struct rwc_call).  RWC_ARG_MEM: [p, p+n) used as NEED;
 * with LENP, n is the socklen_t *lenp holds, read only once lenp is
 * proved readable (the list names lenp in an earlier RWC_ARG_MEM entry).
 * A NULL p is an argument not passed: nothing to check.  RWC_ARG_INT:
 * only shown in the report (its value in n, signed). */
enum rwc_arg_kind { RWC_ARG_MEM, RWC_ARG_INT };
struct rwc_arg {
	const char *name;       /* as the call's man page names it */
	const void *p;
	size_t n;
	const void *lenp;       /* socklen_t *: the in/out length, or NULL */
	size_t obj;             /* fortified __*_chk twins: the object size the
	                         * compiler saw at p (has_obj 1) */
	unsigned char kind;     /* enum rwc_arg_kind */
	unsigned char need;     /* enum rwc_need */
	unsigned char has_obj;
};
#define RWC_ARGS_MAX 6

/* One interposed call, as the entry point saw it.  Filled by the thin
 * exported functions (interpose.c, syscall.c) and read by the checks. */
struct rwc_call {
	const char *name;         /* entry point, e.g. "pread64", "__read_chk" */
	const char *sysname;      /* for syscall(): the system call's name */
	unsigned entry;           /* the entry point's number (entry_id.h), with
	                           * syscall() one per system call */
	enum rwc_shape shape;
	unsigned need;            /* enum rwc_need */
	int fd;
	const void *buf;          /* SHAPE_BUF */
	size_t count;             /* SHAPE_BUF */
	const struct iovec *iov;  /* SHAPE_IOV (and MSG, once read) */
	long iovcnt;              /* SHAPE_IOV */
	const void *msg;          /* SHAPE_MSG: struct msghdr * */
	int has_offset;
	int offset_minus_one_ok;  /* preadv2/pwritev2: -1 is "current position" */
	int64_t offset;
	const void *stream;       /* stdio calls: the FILE (fd is then -1) */
	int fd2;                  /* SHAPE_XFER: the descriptor written to */
	int64_t *offp[2];         /* SHAPE_XFER: offset pointers, NULL for none */
	const char *offname[2];   /* ... and their parameters' names */
	const struct iovec *riov; /* SHAPE_PVM: the remote iovec array */
	long riovcnt;
	const struct rwc_arg *args; /* checked after the shape's own buffers */
	unsigned nargs;
	int no_fd;                /* the call has no descriptor argument */
	void *caller;             /* return address into the caller */
	void *caller_sp;          /* the caller's stack pointer at the call (its
	                           * frame starts there); NULL: unknown */
	void *caller_fp;          /* the frame address of the function that made
	                           * the check (RWC_ENTRY_FP); NULL: unknown */
	int has_objsize;          /* fortified __*_chk calls: */
	size_t objsize;           /* ... the object size the compiler saw at buf */
};

/* The frame address of the function that runs the check: where it is
 * the frame the caller called (its frame address + 16 is the caller's
 * sp: an entry point, or its part the entry point tail-called), its
 * prologue saved the caller's frame pointer there (x86-64: used, the
 * frame address forces the frame pointer; the stack walk checks both). */
#define RWC_ENTRY_FP() __builtin_frame_address(0)

/* The caller's stack pointer at the call, in an exported entry point: the
 * entry point's canonical frame address. */
#define RWC_CALLER_SP() __builtin_dwarf_cfa()

#endif
