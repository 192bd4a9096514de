#!/bin/sh
# install-deps.sh [--test]: installs, with apt-get, the Debian packages
# refkit needs, skipping those already present.  Run as root.
#
# By default, only what building and running the tools needs, without
# Recommends: on a fresh Debian 12 some 200 packages, 127 MB to fetch
# (with --test, 400 packages and 450 MB: a browser,
# a compiler for fuzzing and a database server among them).
#   gcc, make, libc6-dev   the C compiler, make and the C library's
#                    headers (not build-essential: no C++ compiler and
#                    no Debian packaging tools, which nothing here uses)
#   pkg-config       finds SQLite's, ncursesw's, pango's flags
#   libsqlite3-dev   the SQLite library (every tool's database)
#   libcsv-dev       the CSV parser behind crs-stats import
#   libgmp-dev       exact rationals behind d6-roll odds
#   libsodium-dev    SHA-256 of a changes file (src/sync/changes.c), and
#                    sealed draws (core/seal.c: the seed, its commitment,
#                    keyed BLAKE2b)
#   nettle-dev       SHA-256 of the ledgers' hash chains (src/db/chain.c):
#                    nettle picks the processor's SHA instructions when it
#                    has them, about 4.7 times libsodium's portable code
#                    here, which refkit verify spends most of its time in
#   libpq-dev        libpq, PostgreSQL's client library: its header at
#                    build time; the tools load libpq.so.5 (libpq5) only
#                    when a command names a PostgreSQL database
#   libedit-dev      the line editing, history and completion of 'play'
#                    (libedit, BSD-licensed; with libbsd-dev and
#                    libncurses-dev, which it needs linked statically)
#   libncurses-dev   ncursesw, which draws the live boards (watch)
#   libcairo2-dev, libpango1.0-dev, libqrencode-dev   the printed sheets
#                    (the sheets commands, src/paper/draw.c): cairo writes
#                    the PDF, pango lays out its text, libqrencode makes
#                    the QR code of a sheet's code; their headers at build
#                    time, the libraries loaded with dlopen only by sheets
#   fonts-dejavu-core   DejaVu Sans and Sans Mono, the printed sheets'
#                    fonts (and the report page's in the browser test)
#   libmicrohttpd-dev   GNU libmicrohttpd, the HTTP server of refkit serve
#                    (src/web/serve.c), linked into refkit alone
#
# With --test, also what the tests and the benchmarks need (make check,
# make check-full, make bench):
#   sqlite3          the sqlite3 shell, with which the tests read and
#                    change a database, and the benchmark's peer
#   mandoc           lints the man pages (make check)
#   zsh              runs the zsh completion script in make check
#                    (tests/complete.sh)
#   rolldice         the peer of the crs-draw and d6-roll latency benchmarks
#   dicelab          the peer of the d6-roll odds benchmark (make bench)
#   clang, libclang-rt-14-dev   libFuzzer and its sanitizers (tests/fuzz)
#   valgrind         memcheck over the CLI cases (make check-full)
#   cppcheck, clang-tidy        static analysis of src/ (make check-full)
#   util-linux       setpriv, to run a hostile-environment case as nobody,
#                    and the tests' PostgreSQL server
#   postgresql       the server the PostgreSQL tests start (issue #22; its
#                    package has the citext extension)
#   pgbouncer        the connection pooler the PostgreSQL tests start in
#                    front of it, in transaction mode (issue #40)
#   tmux             a real terminal for the tests of 'play' and of the
#                    live boards (tests/tty/play.sh, tests/watch.sh)
#   chromium         a real browser, headless, for the organiser's report
#                    (tests/html.sh: its DOM, its layout, a screenshot)
#   fonts-noto-color-emoji   the emoji in names on the report's page
#   poppler-utils    pdftotext, pdfinfo and pdftoppm, which the tests read
#                    and render the printed sheets with
#   zbar-tools       zbarimg, which reads a printed sheet's QR code back
#                    in the tests (tests/cli/crs-sheets.sh)
#   curl             the HTTP client of the tests of refkit serve
#                    (tests/serve.sh)
#   python3-websocket   the DevTools protocol's client with which
#                    tests/lib/cdp.py drives Chromium through a live page
#   apache2-utils    ApacheBench (ab), the load of bench/serve.sh
set -eu
build="gcc make libc6-dev pkg-config libsqlite3-dev libcsv-dev libgmp-dev
    libsodium-dev nettle-dev libpq-dev libedit-dev libbsd-dev libncurses-dev
    libcairo2-dev libpango1.0-dev libqrencode-dev fonts-dejavu-core
    libmicrohttpd-dev"
test="sqlite3 mandoc zsh rolldice dicelab clang libclang-rt-14-dev valgrind
    cppcheck clang-tidy util-linux postgresql pgbouncer tmux chromium
    fonts-noto-color-emoji poppler-utils zbar-tools curl python3-websocket
    apache2-utils"
case ${1:-} in
'')	pkgs=$build ;;
--test)	pkgs="$build $test" ;;
*)	echo "usage: install-deps.sh [--test]" >&2
	exit 2 ;;
esac
missing=
for p in $pkgs; do
	dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
	    missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "installing:$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
