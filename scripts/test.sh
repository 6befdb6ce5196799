#!/usr/bin/env bash
# Install the test dependencies and run the whole test suite.
#
# The browser tests need Debian's chromium and chromium-driver, and the
# tests of the optional C extension a C compiler to build it; they are
# installed here when missing (as root, or through sudo).
set -euo pipefail
cd "$(dirname "$0")/.."

packages=()
if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
    packages+=(chromium chromium-driver fonts-dejavu-core)
fi
if ! command -v cc >/dev/null 2>&1; then
    packages+=(gcc libc6-dev)
fi
if ! python3 -c 'import os, sysconfig, sys; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))'; then
    packages+=(python3-dev)
fi
if [ "${#packages[@]}" -gt 0 ]; then
    sudo=""
    [ "$(id -u)" = 0 ] || sudo="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -q
    $sudo apt-get install -y -q --no-install-recommends "${packages[@]}"
fi

python3 -m pip install -q --disable-pip-version-check -e ".[test,fuzz]"
python3 -m pytest "$@"
