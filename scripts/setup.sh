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
# The fleet tests use a real Redis at 127.0.0.1:6379, as this project's machines
# provide; where it is not answering and we are root, start it (installing it first).
ensure_redis() {
    if .venv/bin/python -c 'import redis; redis.Redis(socket_connect_timeout=3).ping()' \
        2>/dev/null; then return 0; fi
    if [ "$(id -u)" != "0" ]; then
        echo "warning: Redis does not answer at 127.0.0.1:6379; the fleet tests will fail" >&2
        return 0
    fi
    if ! command -v redis-server >/dev/null && command -v apt-get >/dev/null; then
        apt-get update -qq >/dev/null
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
    fi
    redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no \
        >/dev/null || echo "warning: could not start Redis; the fleet tests will fail" >&2
}
# The server tests run against a real PostgreSQL at 127.0.0.1:5432 (user postgres,
# trust auth, database "test"), as this project's machines provide. Where it is
# stopped or missing and we are root, start it (installing it first if need be).
ensure_postgresql() {
    if .venv/bin/python - <<'PY' 2>/dev/null; then return 0; fi
import psycopg
psycopg.connect("postgresql://postgres@127.0.0.1:5432/test", connect_timeout=3).close()
PY
    if [ "$(id -u)" != "0" ] || ! command -v apt-get >/dev/null; then
        echo "warning: PostgreSQL is not reachable at 127.0.0.1:5432 (database test);" \
             "the PostgreSQL tests will fail" >&2
        return 0
    fi
    if ! command -v pg_ctlcluster >/dev/null; then
        echo "Installing PostgreSQL for the server tests"
        apt-get update -qq >/dev/null
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
    fi
    version=$(ls /etc/postgresql | sort -n | tail -n 1)
    hba=/etc/postgresql/$version/main/pg_hba.conf
    grep -q "^host all all 127.0.0.1/32 trust" "$hba" \
        || sed -i '1i host all all 127.0.0.1/32 trust' "$hba"
    pg_ctlcluster --skip-systemctl-redirect "$version" main start 2>/dev/null \
        || pg_ctlcluster --skip-systemctl-redirect "$version" main reload
    for _ in 1 2 3 4 5 6 7 8 9 10; do
        pg_isready -q -h 127.0.0.1 && break
        sleep 1
    done
    su postgres -c "createdb test" 2>/dev/null || true
}

# Installed editable in "compat" mode (a plain path in a .pth file, not an import
# hook) so that type checkers such as mypy and pyright find the package and its
# py.typed marker from any directory.
if [ "${1:-}" = "test" ]; then
    .venv/bin/python -m pip install --quiet --editable ".[test,compile]" --config-settings editable_mode=compat
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
    ensure_postgresql
    ensure_redis
    # The browser code's type check (tsc, from the npm registry, into node_modules).
    if ! command -v npm >/dev/null && [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
        echo "Installing Node.js and npm for the browser code's type check"
        apt-get update -qq >/dev/null
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null
    fi
    if command -v npm >/dev/null; then
        npm ci --silent --no-audit --no-fund >/dev/null 2>&1 \
            || echo "warning: npm ci failed; the type check of parlour/web will fail" >&2
    else
        echo "warning: npm is missing; the type check of parlour/web will fail" >&2
    fi
else
    .venv/bin/python -m pip install --quiet --editable ".[compile]" --config-settings editable_mode=compat
fi

# The engines' move generation and search compiled to C by mypyc (parlour/compiled.py):
# two to three times the speed where it measures. Optional: without a C compiler or
# Python's headers Parlour plays on in pure Python (and the test of the build fails).
if ! .venv/bin/parlour compile --status | grep -q "are compiled:"; then
    .venv/bin/parlour compile \
        || echo "warning: the engines could not be compiled; they run in pure Python" >&2
fi

# The backgammon engine's bear-off database: built once into the cache (about a
# minute the first time; one line either way).
.venv/bin/parlour bearoff
