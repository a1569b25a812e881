#!/bin/sh
# tests/layers.sh: the library's subsystems keep their one-way order (TAP).
# src/ has one folder per subsystem, lowest first: base, mapview, frames,
# bounds, check, report, entry; each may use only itself and those below.
# Per subsystem:
#  - includes: every #include "..." of its files names a folder (or
#    config.h), and that folder is this one or a lower one;
#  - no circle: its modules (x.c with x.h; a lone header is a module too)
#    include each other in a one-way order (tsort finds no loop);
#  - calls (from the built objects, nm): no rwc_* symbol its objects use
#    is defined by a higher subsystem's object.
S=${RWC_SRCDIR:-.}
B=${RWC_BUILDDIR:-.}
LAYERS="base mapview frames bounds check report entry"
n=0
fail=0
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

rank() { # the layer's number, or empty
	i=0
	for l in $LAYERS; do
		[ "$l" = "$1" ] && { echo $i; return; }
		i=$((i + 1))
	done
}

ok() { n=$((n + 1)); echo "ok $n - $1"; }
notok() { n=$((n + 1)); fail=1; echo "not ok $n - $1"; sed 's/^/# /' "$tmp/why"; }

echo "1..$(( $(echo $LAYERS | wc -w) * 3 + 1 ))"

# No source left outside the folders.
ls "$S"/src/*.c "$S"/src/*.h "$S"/src/*.def >"$tmp/why" 2>/dev/null
if [ -s "$tmp/why" ]; then notok "every library source in a subsystem folder"; else ok "every library source in a subsystem folder"; fi

for l in $LAYERS; do
	r=$(rank "$l")
	: >"$tmp/why"
	: >"$tmp/edges"
	for f in "$S/src/$l"/*.c "$S/src/$l"/*.h "$S/src/$l"/*.def; do
		[ -f "$f" ] || continue
		base=$(basename "$f")
		mod=${base%.*}
		sed -n 's/^[ \t]*#[ \t]*include[ \t]*"\([^"]*\)".*/\1/p' "$f" | while read -r inc; do
			[ "$inc" = config.h ] && continue
			dir=${inc%%/*}
			if [ "$dir" = "$inc" ]; then
				echo "$l/$base: #include \"$inc\" names no folder" >>"$tmp/why"
				continue
			fi
			ir=$(rank "$dir")
			if [ -z "$ir" ]; then
				echo "$l/$base: #include \"$inc\": no such subsystem" >>"$tmp/why"
			elif [ "$ir" -gt "$r" ]; then
				echo "$l/$base: #include \"$inc\": $dir is above $l" >>"$tmp/why"
			elif [ "$dir" = "$l" ]; then
				im=$(basename "$inc")
				im=${im%.*}
				[ "$im" != "$mod" ] && echo "$mod $im" >>"$tmp/edges"
			fi
		done
	done
	if [ -s "$tmp/why" ]; then notok "$l: includes only its own and lower subsystems"; else ok "$l: includes only its own and lower subsystems"; fi

	if tsort "$tmp/edges" >/dev/null 2>"$tmp/why" && ! [ -s "$tmp/why" ]; then
		ok "$l: no circle of includes between its modules"
	else
		notok "$l: no circle of includes between its modules"
	fi
done

# Calls, from the objects the build made (libtool's PIC objects).
objs_of() { ls "$B/src/$1"/.libs/*.o 2>/dev/null; }
: >"$tmp/defs"
for l in $LAYERS; do
	for o in $(objs_of "$l"); do
		nm --defined-only "$o" | awk -v l="$l" -v o="$(basename "$o")" \
			'$2 ~ /^[TDBRVW]$/ && $3 ~ /^rwc_/ { print $3, l, o }' >>"$tmp/defs"
	done
done
for l in $LAYERS; do
	r=$(rank "$l")
	if [ -z "$(objs_of "$l")" ]; then
		ok "$l: calls only its own and lower subsystems # SKIP no objects in $B/src/$l"
		continue
	fi
	: >"$tmp/why"
	for o in $(objs_of "$l"); do
		nm --undefined-only "$o" | awk '$1 == "U" && $2 ~ /^rwc_/ { print $2 }' | while read -r sym; do
			awk -v s="$sym" '$1 == s { print $2, $3 }' "$tmp/defs" | while read -r dl dobj; do
				[ "$(rank "$dl")" -gt "$r" ] &&
					echo "$l/$(basename "$o") uses $sym of $dl/$dobj" >>"$tmp/why"
			done
		done
	done
	if [ -s "$tmp/why" ]; then notok "$l: calls only its own and lower subsystems"; else ok "$l: calls only its own and lower subsystems"; fi
done
exit $fail
