# shellcheck shell=bash
# debian-mirror.sh: which Debian mirror a fresh root is made from; sourced by
# check-fresh.sh and check-deb.sh, which define SUITE and say/skip first.
# pick_mirror sets MIRROR: RWC_FRESH_MIRROR if set (unreachable: a skip),
# else the first of deb.debian.org and the host's apt mirrors that serves
# $SUITE (none: a skip).

DEFAULT_MIRROR=http://deb.debian.org/debian

# Does MIRROR serve Debian $SUITE?  (curl, else apt's own downloader)
mirror_ok() { # MIRROR
	local url=$1/dists/$SUITE/Release rel
	if command -v curl >/dev/null; then
		rel=$(curl -fsSL --max-time 30 "$url" 2>/dev/null) || return 1
	else
		local f
		f=$(mktemp)
		timeout 60 /usr/lib/apt/apt-helper download-file "$url" "$f" >/dev/null 2>&1 || { rm -f "$f"; return 1; }
		rel=$(cat "$f"); rm -f "$f"
	fi
	printf '%s\n' "$rel" | grep -q "^Codename: $SUITE\$"
}

host_mirrors() { # the Debian mirrors in the host's apt sources
	{
		cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
			awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /^https?:\/\//) { print $i; break } }'
		cat /etc/apt/sources.list.d/*.sources 2>/dev/null |
			awk 'tolower($1) == "uris:" { for (i = 2; i <= NF; i++) print $i }'
	} | sed 's|/*$||' | grep -v -e security -e '^$' | awk '!seen[$0]++' || true
}

pick_mirror() { # sets MIRROR
	local m tried=
	MIRROR=${RWC_FRESH_MIRROR-}
	if [ -n "$MIRROR" ]; then
		mirror_ok "$MIRROR" && return
		skip "cannot reach the Debian mirror $RWC_FRESH_MIRROR (RWC_FRESH_MIRROR)"
	fi
	for m in "$DEFAULT_MIRROR" $(host_mirrors); do
		case " $tried " in *" $m "*) continue ;; esac
		tried="$tried $m"
		MIRROR=$m
		mirror_ok "$m" && return
		say "mirror $m: unreachable or not serving $SUITE"
	done
	skip "cannot reach a Debian $SUITE mirror (tried:$tried)"
}
