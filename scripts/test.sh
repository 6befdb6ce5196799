#!/usr/bin/env bash
# Install the test dependencies and run the whole test suite.
#
# The browser tests need Debian's chromium and chromium-driver; they are
# installed here when missing (as root, or through sudo).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
    sudo=""
    [ "$(id -u)" = 0 ] || sudo="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -q
    $sudo apt-get install -y -q --no-install-recommends chromium chromium-driver fonts-dejavu-core
fi

python3 -m pip install -q --disable-pip-version-check -e ".[test]"
python3 -m pytest "$@"
