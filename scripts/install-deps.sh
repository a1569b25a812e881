#!/bin/sh
# Install everything rwcheck needs to build and test on Debian 12 (run as root).
# Idempotent: safe to run again.
set -eu
export DEBIAN_FRONTEND=noninteractive
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends \
    build-essential autoconf automake libtool pkgconf make gcc \
    libunwind-dev libdw-dev libelf-dev \
    python3 git perl coreutils gzip tar ca-certificates \
    >/dev/null
echo "install-deps: done"
