#!/bin/sh
# What a fork child writes and runs of the library lies on few pages: its
# first write of a page it shares with the parent copies it, and each
# 64 KiB window of code it runs is a fault of its own (file pages are not
# copied at fork).  The quarantine's counters share a page with start_pid
# (which every child writes: base/ownmem.c) on a line of their own; the
# child's part of fork() sits with the start code (RWC_FORK_CODE).
n=0; failed=0
t() { n=$((n+1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=1; fi; }
addr() { nm "$RWC_LIB" | awk -v s="$1" '$3 == s {print $1; exit}'; }

ctr=$(addr rwc_q_ctr); pid=$(addr start_pid); init=$(addr rwc_init)
t "$([ -n "$ctr" ] && [ -n "$pid" ] && [ -n "$init" ]; echo $?)" "the symbols are there (nm)"
t "$([ $((0x${ctr:-0} / 4096)) -eq $((0x${pid:-1} / 4096)) ] && [ $((0x${ctr:-1} % 64)) -eq 0 ]; echo $?)" \
	"the quarantine's counters (0x$ctr) on start_pid's page (0x$pid), on a line of their own"
for f in fork rwc_ownmem_forked rwc_dwprobe_forked; do
	a=$(addr $f)
	d=$((0x${a:-0} - 0x${init:-0}))
	t "$([ -n "$a" ] && [ ${d#-} -lt 4096 ]; echo $?)" "$f (0x$a) beside the start code (rwc_init 0x$init)"
done
echo "1..$n"
exit $failed
