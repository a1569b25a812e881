/* log.c: report and warning output (see log.h).  Signal-safe, no
 * allocation: the file is opened and closed around each message; stderr
 * is written only while descriptor 2 is still the file the process
 * started with. */
#include "config.h"

#include "base/log.h"
#include "base/common.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/fileio.h"
#include "base/fmt.h"
#include "base/knobs.h"
#include "base/ownmem.h"
#include "base/rawsys.h"
#include "base/real.h"

int rwc_log_expand(const char *tmpl, pid_t pid, char *out, size_t cap)
{
	struct rwc_fmt f;

	rwc_fmt_init(&f, out, cap);
	for (const char *s = tmpl; *s; s++) {
		if (s[0] == '%' && s[1] == 'p') {
			rwc_fmt_i64(&f, pid);
			s++;
		} else if (s[0] == '%' && s[1] == '%') {
			rwc_fmt_char(&f, '%');
			s++;
		} else {
			rwc_fmt_char(&f, *s);
		}
	}
	return f.truncated ? -1 : 0;
}

/* The stderr this process started with, as the constructor found it:
 * 1 open (its device and inode), -1 closed, 0 not known (the library was
 * not loaded at start: stderr is trusted). */
static struct {
	int state;
	dev_t dev;
	ino_t ino;
} err0 RWC_START_DATA;
static unsigned long dropped RWC_START_DATA; /* messages not written: descriptor 2 was another file */

RWC_START_CODE void rwc_log_start(void)
{
	struct stat st = {0}; /* (the raw fstat writes it in asm: analyzers do not see that) */
	int e = errno;

	/* (fstat would read its "" path from a page of libc's rodata that a
	 * start touches for nothing; no libc at all: rawsys.h) */
	if (rwc_raw_fstat(2, &st) == 0) {
		err0.dev = st.st_dev;
		err0.ino = st.st_ino;
		err0.state = 1;
	} else {
		err0.state = -1;
	}
	errno = e;
}

/* Is descriptor 2 still the stderr the process started with?  (A program
 * that closed it and opened its own file there must not get reports in
 * that file.) */
static int stderr_is_ours(void)
{
	struct stat st;
	int e = errno, r;

	if (err0.state == 0)
		return 1;
	r = err0.state == 1 && fstat(2, &st) == 0 && st.st_dev == err0.dev && st.st_ino == err0.ino;
	errno = e;
	return r;
}


void rwc_log_prefix(struct rwc_fmt *f)
{
	rwc_fmt_str(f, "rwcheck[");
	rwc_fmt_i64(f, getpid());
	rwc_fmt_str(f, "]: ");
}

static int to_stderr(const char *buf, size_t len)
{
	if (!stderr_is_ours()) {
		__atomic_add_fetch(&dropped, 1, __ATOMIC_RELAXED);
		return 0;
	}
	(void)rwc_write_all(2, buf, len);
	return 1;
}

RWC_START_CODE void rwc_log_dropped_note(void)
{
	unsigned long n = __atomic_load_n(&dropped, __ATOMIC_RELAXED);
	char buf[200];
	struct rwc_fmt f;

	if (!n || !stderr_is_ours())
		return;
	rwc_fmt_init(&f, buf, sizeof buf);
	rwc_log_prefix(&f);
	rwc_fmt_i64(&f, (long long)n);
	rwc_fmt_str(&f, n == 1 ? " message" : " messages");
	rwc_fmt_str(&f, " dropped: descriptor 2 was not this process's stderr (set RWCHECK_LOG to keep them)\n");
	(void)rwc_write_all(2, buf, f.len);
}

/* strerror's text for the errors open(2) gives most (strerror itself may
 * allocate: not here). */
static const char *errno_text(int e)
{
	switch (e) {
	case ENOENT: return "No such file or directory";
	case EACCES: return "Permission denied";
	case ENOTDIR: return "Not a directory";
	case EROFS: return "Read-only file system";
	case ELOOP: return "Too many levels of symbolic links (or a symbolic link: O_NOFOLLOW)";
	case EISDIR: return "Is a directory";
	case ENOSPC: return "No space left on device";
	case EMFILE: return "Too many open files";
	case ENAMETOOLONG: return "File name too long";
	default: return "cannot open it";
	}
}

/* RWCHECK_LOG's path for this process, expanded once per process id
 * (not on the stack: a report may be made on a signal handler's small
 * sigaltstack).  Threads that expand it at once write the same bytes. */
static char log_path[PATH_MAX];
static pid_t log_path_pid;

static const char *log_path_now(void)
{
	pid_t pid = getpid();

	if (__atomic_load_n(&log_path_pid, __ATOMIC_ACQUIRE) == pid)
		return log_path;
	if (rwc_log_expand(rwc_knobs.log, pid, log_path, sizeof log_path) != 0)
		return NULL;
	__atomic_store_n(&log_path_pid, pid, __ATOMIC_RELEASE);
	return log_path;
}

static void log_failed(const char *path, int e, const char *buf, size_t len);

/* BUF to the file at PATH (NULL: too long), or to stderr saying why not. */
static void log_to(const char *path, const char *buf, size_t len)
{
	int fd;

	if (!path) {
		log_failed(rwc_knobs.log, ENAMETOOLONG, buf, len);
		return;
	}
	fd = rwc_open_spare(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd >= 0) {
		(void)rwc_write_all(fd, buf, len);
		close(fd);
		return;
	}
	log_failed(path, errno, buf, len);
}

/* A vfork child shares the parent's memory: its path on its own stack. */
static __attribute__((noinline)) void log_vfork_child(const char *buf, size_t len)
{
	char path[PATH_MAX];

	log_to(rwc_log_expand(rwc_knobs.log, getpid(), path, sizeof path) ? NULL : path, buf, len);
}

void rwc_log_write(const char *buf, size_t len)
{
	if (!rwc_knobs.log[0])
		to_stderr(buf, len);
	else if (rwc_in_vfork_child())
		log_vfork_child(buf, len);
	else
		log_to(log_path_now(), buf, len);
}

/* A report must never be lost silently: say so on stderr (out of line:
 * its buffer is not on the stack of every report). */
static __attribute__((noinline)) void log_failed(const char *path, int e, const char *buf, size_t len)
{
	{
		char note[1024]; /* (a long path is cut short) */
		struct rwc_fmt f;

		rwc_fmt_init(&f, note, sizeof note);
		rwc_fmt_str(&f, "rwcheck: cannot open RWCHECK_LOG=");
		rwc_fmt_str(&f, path);
		rwc_fmt_str(&f, ": ");
		rwc_fmt_str(&f, errno_text(e));
		rwc_fmt_str(&f, "; reporting to stderr\n");
		if (to_stderr(note, f.len))
			(void)rwc_write_all(2, buf, len);
	}
}

/* RWCHECK_FORMAT=json: a warning is a JSON object too, so that a log
 * holds JSON lines only: {"pid":N,"warning":"MSG[: EXTRA]","text":LINE}. */
void rwc_log_warning(const char *msg, const char *extra)
{
	char text[1024], json[3072];
	struct rwc_fmt f, j;
	size_t at;

	rwc_fmt_init(&f, text, sizeof text);
	rwc_log_prefix(&f);
	rwc_fmt_str(&f, "warning: ");
	at = f.len;
	rwc_fmt_str(&f, msg);
	if (extra) {
		rwc_fmt_str(&f, ": ");
		rwc_fmt_str(&f, extra);
	}
	rwc_fmt_char(&f, '\n');
	if (f.truncated)
		text[f.len - 1] = '\n';
	if (rwc_knobs.format != RWC_FORMAT_JSON) {
		rwc_log_write(text, f.len);
		return;
	}
	rwc_fmt_init(&j, json, sizeof json);
	rwc_fmt_str(&j, "{\"pid\":");
	rwc_fmt_i64(&j, getpid());
	rwc_fmt_str(&j, ",\"warning\":");
	text[f.len - 1] = '\0';
	rwc_fmt_json_str(&j, text + at);
	text[f.len - 1] = '\n';
	rwc_fmt_str(&j, ",\"text\":");
	text[f.len] = '\0';
	rwc_fmt_json_str(&j, text);
	rwc_fmt_str(&j, "}\n");
	rwc_log_write(json, j.len);
}

void rwc_log_knob_warning(const char *knob, const char *value, const char *expected)
{
	char buf[600];
	struct rwc_fmt f;

	rwc_fmt_init(&f, buf, sizeof buf);
	rwc_fmt_str(&f, knob);
	rwc_fmt_str(&f, "='");
	rwc_fmt_mem(&f, value, strnlen(value, 200));
	rwc_fmt_str(&f, "' is not valid (expected ");
	rwc_fmt_str(&f, expected);
	rwc_fmt_str(&f, "); using the default");
	rwc_log_warning(buf, NULL);
}
