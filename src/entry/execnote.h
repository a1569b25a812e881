/* execnote.h: under the wrapper, a record of each program the process
 * execs or spawns without the library in its environment (env -i, a test
 * harness that clears LD_PRELOAD): the wrapper counts them among the
 * processes that ran unchecked, however short they live (its /proc
 * sampling misses those).  Signal- and vfork-safe, no allocation. */
#ifndef RWC_EXECNOTE_H
#define RWC_EXECNOTE_H

#include <sys/types.h>

/* The environment the process started with (the constructor's environ). */
extern char **rwc_start_environ;

/* 1 when ENVP names no librwcheck in LD_PRELOAD and the process started
 * with its reports going to a JSON log file (the wrapper's), so an exec
 * with ENVP should be noted. */
int rwc_exec_unchecked(char *const *envp);

/* Makes, in a parent before it forks (entry/fork.c), the calls of libc
 * that rwc_exec_unchecked makes, so that they are bound in its children:
 * a fork child's exec then runs no lazy binding of the loader, which
 * reads libc's symbol tables (pages a child does not share: ~9 faults). */
void rwc_exec_warm(void);

/* Appends {"unchecked_exec": PATH, "pid": PID} to that log file. */
void rwc_exec_note(const char *path, pid_t pid);

#endif
