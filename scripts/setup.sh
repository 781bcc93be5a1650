# Sourced by scripts/run.sh and scripts/test.sh: makes .venv and installs Parlour into
# it (with the test tools and oracles when called with "test"). Idempotent and quiet.
# Test-only Debian packages listed in scripts/debian-test-packages.txt are installed
# when running as root; tests that need a missing one fail, they are never skipped.

PYTHON=${PYTHON:-python3}
if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    echo "Parlour needs Python 3.11 or newer (found: $("$PYTHON" --version 2>&1))" >&2
    exit 1
fi
if [ ! -x .venv/bin/python ]; then
    "$PYTHON" -m venv .venv
fi
export PIP_DISABLE_PIP_VERSION_CHECK=1
if [ "${1:-}" = "test" ]; then
    .venv/bin/python -m pip install --quiet --editable ".[test]"
    wanted=$(sed -e 's/#.*//' scripts/debian-test-packages.txt | tr '\n' ' ')
    missing=""
    for package in $wanted; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" \
            || missing="$missing $package"
    done
    if [ -n "$missing" ]; then
        if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
            echo "Installing test-only Debian packages:$missing"
            apt-get update -qq >/dev/null
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
        else
            echo "warning: missing Debian packages:$missing (run as root to install);" \
                 "the tests that need them will fail" >&2
        fi
    fi
else
    .venv/bin/python -m pip install --quiet --editable .
fi
