#!/usr/bin/env bash
# Install termscribe with its test dependencies and run the whole test suite.
#
# Everything goes into a virtual environment: the active one if there is
# one ($VIRTUAL_ENV), else .venv at the top of the checkout (made here when
# missing), never the system's Python.  The browser tests need Debian's
# chromium and chromium-driver, the tests of the optional C extension a C
# compiler and Python's headers to build it, and making .venv Debian's
# python3-venv; they are installed here when missing (as root, or through
# sudo).  Arguments go to pytest; any pytest failure, "no tests collected"
# (exit status 5) included, is this script's failure.
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
if [ -z "${VIRTUAL_ENV:-}" ] && [ ! -x .venv/bin/python ] && ! python3 -c 'import ensurepip, venv' 2>/dev/null; then
    packages+=(python3-venv)
fi
if [ "${#packages[@]}" -gt 0 ]; then
    sudo=""
    [ "$(id -u)" = 0 ] || sudo="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -q
    $sudo apt-get install -y -q --no-install-recommends "${packages[@]}"
fi

if [ -n "${VIRTUAL_ENV:-}" ]; then
    python="$VIRTUAL_ENV/bin/python"
else
    if [ ! -x .venv/bin/python ]; then
        echo "scripts/test.sh: making a virtual environment in .venv" >&2
        python3 -m venv .venv
    fi
    python=.venv/bin/python
fi
"$python" -m pip install -q --disable-pip-version-check -e ".[test,fuzz]"
status=0
"$python" -m pytest "$@" || status=$?
if [ "$status" -eq 5 ]; then
    echo "scripts/test.sh: pytest collected no tests" >&2
fi
exit "$status"
