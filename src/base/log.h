/* log.h: where reports and warnings go (RWCHECK_LOG).  Each message is one
 * write(); a log file is opened per message (O_APPEND, O_CLOEXEC,
 * O_NOFOLLOW, mode 0600) and closed again, so the program never sees a
 * descriptor of ours.  Signal-safe, no allocation. */
#ifndef RWC_LOG_H
#define RWC_LOG_H

#include <stddef.h>
#include <sys/types.h>

/* Expands %p and %% of TMPL into OUT: 0, or -1 if it does not fit. */
int rwc_log_expand(const char *tmpl, pid_t pid, char *out, size_t cap);

/* To RWCHECK_LOG, or to stderr while descriptor 2 is still the file the
 * process started with (else the message is dropped and counted). */
void rwc_log_write(const char *buf, size_t len);

/* From the constructor: which file stderr is. */
void rwc_log_start(void);
/* At exit: how many messages were dropped, if stderr is ours again. */
void rwc_log_dropped_note(void);

struct rwc_fmt;
/* "rwcheck[PID]: ", the start of every line the library writes. */
void rwc_log_prefix(struct rwc_fmt *f);

/* "rwcheck[pid]: warning: MSG[: EXTRA]\n" */
void rwc_log_warning(const char *msg, const char *extra);

/* The knob warning: names the knob, the value, what is expected. */
void rwc_log_knob_warning(const char *knob, const char *value, const char *expected);

#endif
