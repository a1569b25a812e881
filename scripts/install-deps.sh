#!/bin/sh
# Install everything rwcheck needs to build and test on Debian 12 (run as
# root, or with sudo available).  Idempotent: safe to run again.
# --suites: also what make check-suites needs (scripts/suites-deps.sh: a
# deb-src line for apt-get source, the suites' build dependencies).
set -eu
export DEBIAN_FRONTEND=noninteractive
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends \
    build-essential autoconf automake libtool pkgconf make gcc \
    libunwind-dev libdw-dev libelf-dev libjansson-dev \
    python3 git perl coreutils gzip tar groff-base man-db ca-certificates \
    valgrind cppcheck clang-tidy clang libclang-rt-dev \
    libjemalloc2 libtcmalloc-minimal4 \
    debhelper dpkg-dev lintian debootstrap \
    cmake meson ninja-build python3-pytest jq \
    >/dev/null

# The SARIF validator for the tests (Microsoft's SARIF multitool, from the
# npm registry; self-contained, runs offline).  Optional: without it the
# SARIF test says SKIP instead of failing the build.
TOOLS=${RWC_TOOLS:-/opt/rwcheck-tools}
install_sarif_validator() {
	if ! command -v npm >/dev/null 2>&1; then
		$SUDO apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null || return 1
	fi
	$SUDO mkdir -p "$TOOLS" &&
	$SUDO npm install --silent --no-audit --no-fund --prefix "$TOOLS" @microsoft/sarif-multitool@5.7.0 >/dev/null || return 1
	# its postinstall (chmod) is not run by default
	$SUDO chmod u+x "$TOOLS"/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool 2>/dev/null || true
}
if [ ! -x "$TOOLS/node_modules/.bin/sarif-multitool" ]; then
	install_sarif_validator || echo "install-deps: warning: the SARIF validator could not be installed; tests/sarif.sh will skip its validation"
fi
if [ "${1-}" = --suites ]; then
	"$(dirname "$0")/suites-deps.sh" || [ $? -eq 77 ]   # no mirror: check-suites says SKIP
fi
echo "install-deps: done"
