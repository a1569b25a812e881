#!/usr/bin/env bash
# suites-deps.sh: what make check-suites needs on Debian 12, on top of
# install-deps.sh (run as root, or with sudo): a deb-src source for apt-get
# source (Debian's mirror, picked as scripts/debian-mirror.sh does, unless the
# host's apt sources already have a deb-src line for bookworm), the suites'
# build dependencies, and Debian's Python regression tests.  Idempotent.
# Exit 77 (SKIP) when no Debian mirror is reachable.
set -eu
export DEBIAN_FRONTEND=noninteractive
SUITE=bookworm
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
say() { printf 'suites-deps: %s\n' "$*"; }
skip() { say "SKIP: $*"; exit 77; }
# shellcheck source=scripts/debian-mirror.sh
. "$(dirname "$(readlink -f "$0")")/debian-mirror.sh"

has_deb_src() {
	cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null | grep -Eq "^deb-src .* $SUITE( |\$)" && return 0
	cat /etc/apt/sources.list.d/*.sources 2>/dev/null | awk -v s="$SUITE" '
		tolower($1) == "types:" { t = / deb-src/ } tolower($1) == "suites:" { for (i = 2; i <= NF; i++) if (t && $i == s) f = 1 }
		END { exit !f }'
}

if ! has_deb_src; then
	pick_mirror
	say "adding deb-src $MIRROR $SUITE main"
	printf 'Types: deb-src\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
		"$MIRROR" "$SUITE" | $SUDO tee /etc/apt/sources.list.d/rwcheck-suites-src.sources >/dev/null
fi
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends \
	dpkg-dev build-essential autoconf automake libtool pkgconf \
	zlib1g-dev liblzma-dev libbz2-dev libxml2-dev libexpat1-dev libssl-dev \
	tcl8.6 tcl8.6-dev libpython3.11-testsuite python3 procps \
	>/dev/null
say "done"
