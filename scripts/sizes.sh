#!/bin/sh
# scripts/sizes.sh [DIR]: the library's size rule (HACKING.md): lists every
# C file (.c, .h) under DIR (default src) over 400 lines and every function
# over 60, one line each ("file: N lines", "file:line: function() N
# lines"), and exits 1 when it listed any.  A function is counted from its
# opening brace to its closing one, both alone at the start of a line (the
# project's style); its name is the last identifier before a "(" above the
# brace.  Run by make lint.
dir=${1:-src}
MAX_FILE=400
MAX_FUNC=60
found=0
for f in $(find "$dir" -name '*.[ch]' | LC_ALL=C sort); do
	awk -v f="$f" -v maxfile=$MAX_FILE -v maxfunc=$MAX_FUNC '
		/\(/ && !/^[ \t]/ && !in_body {   # a line of a function head
			s = $0
			sub(/\(.*/, "", s)
			n = split(s, w, /[^A-Za-z0-9_]+/)
			while (n > 0 && w[n] == "")
				n--
			if (n > 0)
				name = w[n]
		}
		/^\{[ \t]*$/ && !in_body { in_body = 1; start = NR; next }
		/^\}/ && in_body {
			in_body = 0
			if (NR - start + 1 > maxfunc)
				printf "%s:%d: %s() %d lines\n", f, start, name, NR - start + 1
		}
		END { if (NR > maxfile) printf "%s: %d lines\n", f, NR }
	' "$f"
done >"${TMPDIR:-/tmp}/sizes.$$"
cat "${TMPDIR:-/tmp}/sizes.$$"
[ -s "${TMPDIR:-/tmp}/sizes.$$" ] && found=1
rm -f "${TMPDIR:-/tmp}/sizes.$$"
exit $found
