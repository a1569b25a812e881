/* log.c: report and warning output (see log.h).  Signal-safe, no
 * allocation: the file is opened and closed around each message. */
#include "config.h"

#include "log.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "fmt.h"
#include "knobs.h"
#include "real.h"

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

static void write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = REAL(write)(fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		buf += n;
		len -= (size_t)n;
	}
}

void rwc_log_write(const char *buf, size_t len)
{
	char path[PATH_MAX];
	int fd;

	if (!rwc_knobs.log[0]) {
		write_all(2, buf, len);
		return;
	}
	if (rwc_log_expand(rwc_knobs.log, getpid(), path, sizeof path) == 0) {
		fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0600);
		if (fd >= 0) {
			write_all(fd, buf, len);
			close(fd);
			return;
		}
	}
	/* A report must never be lost silently: say so on stderr. */
	{
		static const char note[] = "rwcheck: cannot open RWCHECK_LOG; reporting to stderr\n";
		write_all(2, note, sizeof note - 1);
		write_all(2, buf, len);
	}
}

void rwc_log_warning(const char *msg, const char *extra)
{
	char buf[1024];
	struct rwc_fmt f;

	rwc_fmt_init(&f, buf, sizeof buf);
	rwc_fmt_str(&f, "rwcheck[");
	rwc_fmt_i64(&f, getpid());
	rwc_fmt_str(&f, "]: warning: ");
	rwc_fmt_str(&f, msg);
	if (extra) {
		rwc_fmt_str(&f, ": ");
		rwc_fmt_str(&f, extra);
	}
	rwc_fmt_char(&f, '\n');
	if (f.truncated)
		buf[f.len - 1] = '\n';
	rwc_log_write(buf, f.len);
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
