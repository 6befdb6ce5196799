#!/usr/bin/env bash
# Install termscribe with its test dependencies and run the whole test suite.
#
#     bash scripts/test.sh [--deep] [PYTEST ARGUMENTS...]
#
# Everything goes into a virtual environment: the active one if there is
# one ($VIRTUAL_ENV), else .venv at the top of the checkout (made here when
# missing), never the system's Python.  The browser tests need Debian's
# chromium and chromium-driver, the tests of the optional C extension a C
# compiler and Python's headers to build it, and making .venv Debian's
# python3-venv; they are installed here when missing (as root, or through
# sudo).
#
# The suite runs in its default profile, a few minutes; --deep (or
# TERMSCRIBE_DEEP=1 in the environment) runs the deep profile that CI runs
# (see CONTRIBUTING.md): every Hypothesis example, long fuzz runs, the
# timing checks.  The other arguments go to pytest; without any, once the
# whole suite has passed, its core tests run again with the C extension
# turned off (TERMSCRIBE_PURE_PYTHON=1; those of large inputs in the deep
# profile only), and in the deep profile once more with every model taking
# events one at a time (TERMSCRIBE_ONE_BY_ONE=1).
# Any pytest failure, "no tests collected" (exit status 5) included, is
# this script's failure.
set -euo pipefail
cd "$(dirname "$0")/.."

arguments=()
for argument in "$@"; do
    if [ "$argument" = "--deep" ]; then
        export TERMSCRIBE_DEEP=1
    else
        arguments+=("$argument")
    fi
done

# Run again with each switch after a whole-suite run of the deep profile:
# TERMSCRIBE_PURE_PYTHON=1 and TERMSCRIBE_ONE_BY_ONE=1.
core_tests=(
    tests/test_pure_python.py
    tests/test_parser.py
    tests/test_lines.py
    tests/test_strip.py
    tests/test_hostile.py
    tests/test_properties.py
    tests/test_amplification.py
    tests/test_corpus.py
    tests/test_changes.py
)
# The default profile's run with TERMSCRIBE_PURE_PYTHON=1: the core tests
# but those of large inputs (hostile, amplification, corpus, changes), a
# minute of the run.
fast_core_tests=(
    tests/test_pure_python.py
    tests/test_parser.py
    tests/test_lines.py
    tests/test_strip.py
    tests/test_properties.py
)

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
# A compiler is there (see above), so the optional C extension must have
# been built: its tests would otherwise be skipped unnoticed.
if ! "$python" -c "import termscribe._speedups"; then
    echo "scripts/test.sh: the C extension termscribe._speedups was not built" >&2
    exit 1
fi
status=0
"$python" -m pytest ${arguments[@]+"${arguments[@]}"} || status=$?
if [ "$status" -eq 0 ] && [ "${#arguments[@]}" -eq 0 ]; then
    # The whole suite passed: its core, hostile and property tests once more
    # with the extension turned off, so that the pure-Python code that
    # mirrors it runs end to end too; in the deep profile, and once more
    # with every model taking events one at a time, the reference that the
    # batched path must equal.
    if [ "${TERMSCRIBE_DEEP:-}" = 1 ]; then
        TERMSCRIBE_PURE_PYTHON=1 "$python" -m pytest -p no:cacheprovider "${core_tests[@]}" || status=$?
        if [ "$status" -eq 0 ]; then
            TERMSCRIBE_ONE_BY_ONE=1 "$python" -m pytest -p no:cacheprovider "${core_tests[@]}" || status=$?
        fi
    else
        TERMSCRIBE_PURE_PYTHON=1 "$python" -m pytest -p no:cacheprovider "${fast_core_tests[@]}" || status=$?
    fi
fi
if [ "$status" -eq 5 ]; then
    echo "scripts/test.sh: pytest collected no tests" >&2
fi
exit "$status"
