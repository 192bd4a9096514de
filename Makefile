# refkit: tools for referees of live-action role-playing games.
#
#   make                    build every tool
#   make check              the quick tests (unit, CLI golden, completion
#                           scripts, man lint), a line per test file;
#                           also "make test"
#   make SANITIZE=1 check   the same under ASan and UBSan
#   make check-full         every test (what CI runs): the above, again
#                           under the sanitizers, valgrind, fuzzing smoke,
#                           crash and concurrency, static analysis
#   make check-soak         the same with the long forms (all of the CLI
#                           cases under valgrind, longer fuzzing)
#   make fuzz               each fuzz target for FUZZ_TIME seconds
#   make bench              benchmarks against their peers (not in check)
#   make SHARED=1           link SQLite and libcsv dynamically
#   make install PREFIX=/usr/local DESTDIR=   tools, man pages, and the
#                           bash and zsh completion scripts
#   make V=1                print each command in full (by default a
#                           line per file: CC src/crs/combat.c)

PREFIX    ?= /usr/local
BINDIR    ?= $(PREFIX)/bin
MANDIR    ?= $(PREFIX)/share/man
# Where bash-completion and zsh look for a command's completion.
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR  ?= $(PREFIX)/share/zsh/site-functions
CC        ?= cc
PKG_CONFIG ?= pkg-config

# A line per file (CC src/crs/combat.c, LD build/crs-combat), as kbuild
# and git's Makefile print, so that what matters (a warning, the tool's
# own output after it) is not lost among a hundred compiler lines; V=1
# prints the commands in full.  Warnings are the compiler's own and show
# either way.
ifeq ($(V),1)
Q      =
say    = @:
else
Q      = @
say    = @printf '  %-4s %s\n'
endif

WARN   = -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes \
         -Wmissing-prototypes -Werror=implicit-function-declaration \
         -Werror=incompatible-pointer-types
CSTD   = -std=c17 -D_DEFAULT_SOURCE -D_GNU_SOURCE
OPT    ?= -O2 -g

ifeq ($(VALGRIND),1)
# For valgrind memcheck (tests/valgrind.sh): dynamically linked, so that
# valgrind can see every malloc and free.
B      = build-vg
OPT    = -O1 -g
SHARED = 1
SANFLAGS =
else ifeq ($(NOCHAIN),1)
# For bench/chain.sh alone: the tools with the hash chain left out, to
# time what it costs an append.  Never installed.
B      = build-nochain
SANFLAGS = -DREFKIT_BENCH_NO_CHAIN
else ifeq ($(SANITIZE),1)
B      = build-san
OPT    = -O1 -g -fno-omit-frame-pointer
SANFLAGS = -fsanitize=address,undefined -fno-sanitize-recover=all
else
B      = build
SANFLAGS =
endif

# SQLite, libcsv, GMP and libsodium are Debian's, linked in, as Fossil
# builds SQLite in: it saves each command the dynamic loader's work, which
# a GM at the table waits for.  Only glibc is linked dynamically, so that
# libpq (Debian's, for a PostgreSQL database) can be loaded with dlopen
# when a command names one (src/db/dbpg.c): linked, it would bring a
# dozen libraries for the loader to map at every command's start.  The
# cost is that a library update needs a rebuild; SHARED=1 links
# everything dynamically instead.
#
# Debian's SQLite is built with the session extension (stations exchange
# their changes as changesets, src/sync/changes.h) and the preupdate hook
# it rests on; sqlite3.h declares them only under SQLITE_ENABLE_SESSION
# and SQLITE_ENABLE_PREUPDATE_HOOK.  libsodium gives the SHA-256 of a
# changes file.
SQLITE_CFLAGS := $(shell $(PKG_CONFIG) --cflags sqlite3) \
                 -DSQLITE_ENABLE_SESSION -DSQLITE_ENABLE_PREUPDATE_HOOK
PQ_CFLAGS := -I$(shell pg_config --includedir 2>/dev/null || \
             echo /usr/include/postgresql)
#
# ncursesw (and the libtinfo under it) draws the live boards (watch,
# src/term/watch.c), and is linked in the same way, though Debian's base
# system has its shared library: linked dynamically, it is two more
# libraries for the loader to map at the start of every command of the
# three tools that watch, for a board that one command in hundreds draws
# (crs-combat --version in a loop: 0.71 ms of processor time a command
# linked in, 0.89 ms with the two loaded).  Linked in, only those three
# tools carry it (some 370 KB each), and it reads the terminal
# descriptions from the same terminfo directories (Debian's
# ncurses-base) as the shared library would.
CURSES_LIBS := $(shell $(PKG_CONFIG) --libs ncursesw)
#
# cairo, pango and libqrencode draw the printed sheets (the sheets
# commands), and are neither linked in nor linked: with glib, harfbuzz,
# fontconfig, freetype and the rest they are some thirty shared libraries
# to map at every start of the three tools that print, for one command in
# hundreds.  src/paper/draw.c loads them with dlopen when a sheet is drawn;
# only their headers are needed here (libpango1.0-dev, libcairo2-dev,
# libqrencode-dev), as -isystem, so that their own warnings stay theirs.
DRAW_CFLAGS := $(patsubst -I%,-isystem %,$(filter -I%,\
               $(shell $(PKG_CONFIG) --cflags pangocairo libqrencode)))
ifeq ($(SHARED),1)
DEPLIBS := $(shell $(PKG_CONFIG) --libs sqlite3) -lcsv -lgmp -lsodium \
           -lnettle -ledit $(CURSES_LIBS) -lm -ldl
else
# (Debian's libsqlite3.a needs only libm, dl and pthread; not zlib.)
# libedit (play's prompt) needs terminfo, which ncursesw's flags bring,
# and libbsd.
DEPLIBS := -Wl,-Bstatic $(shell $(PKG_CONFIG) --libs sqlite3) -lcsv -lgmp \
           -lsodium -lnettle -ledit $(CURSES_LIBS) -lbsd -lmd \
           -Wl,-Bdynamic -lm \
           -lpthread -ldl
endif
# -pthread: fb-duel sim plays its jobs on POSIX threads (src/fb/sim.c).
CFLAGS  += $(CSTD) $(WARN) $(OPT) $(SANFLAGS) $(SQLITE_CFLAGS) $(PQ_CFLAGS) \
           -Isrc -pthread
LDFLAGS += $(SANFLAGS) $(STATIC) -pthread
LDLIBS  += $(DEPLIBS)

TOOLS  = crs-stats crs-draw crs-combat d6-roll fb-duel bg-board refkit
# The library, a folder per purpose (src/FOLDER/MODULE.c), each on the
# ones before it and never on a later one:
#   base/   what any C program here needs: strbuf (a growing buffer
#           of bytes or text), util (memory, text, errors),
#           names (matching what a GM types), rng (the seedable
#           generator), out (tables, JSON, CSV);
#   db/     the database: db_base (the handle, a statement's codes, keys'
#           arithmetic, the clock), dbpg (the PostgreSQL backend, on
#           db_base alone), db_stmt (statements, bulk loads and the
#           failure handler, on SQLite or dbpg), changeset and gone
#           (the record of changes), chain (the hash chains'
#           SQL functions), extsort, then db (opening, migrations, keys,
#           transactions) and lookup over them all;
#   sync/   stations: their identity, changes files and how they show,
#           the exchange of changes, conflicts and their resolutions;
#   paper/  printed sheets and charts: page, draw (cairo by dlopen),
#           svg, sheetrun;
#   core/   what every game's ledger and main stands on: cli (the
#           command line), journal (the logs and their kinds), pack,
#           seal;
#   term/   the terminal: play's prompt, the live boards, completion;
# then each game system's rules, their text forms and their stores
# (crs/, d6/, fb/, bg/); kinds/, the table of every kind of log, through
# which the commands over all of them reach a game; trust/ over them all
# (verify checks every ledger); and src/cmd/TOOL.c, the main of each
# tool.
LIBSRC = base/strbuf base/util base/names base/rng base/out base/fit base/when \
         db/db_base db/dbpg db/db_stmt db/changeset db/gone \
         db/chain db/extsort db/db db/lookup \
         sync/station sync/changes sync/changes_show sync/dbapply \
         sync/writers sync/exchange sync/resolve \
         paper/page paper/draw paper/svg paper/sheetrun \
         core/cli core/journal core/pack core/seal core/ruling \
         term/play term/watch term/complete \
         crs/stats crs/item crs/sheet crs/deck crs/odds crs/combat \
         crs/text crs/pack crs/page crs/printed \
         crs/roster crs/import crs/ledger crs/complete crs/watch \
         crs/report crs/report_json crs/report_html crs/report_load \
         d6/d6 d6/chart d6/sheet d6/page d6/ledger d6/complete \
         fb/fb fb/sim fb/text fb/page fb/pack fb/ledger fb/complete \
         fb/watch \
         bg/bg bg/text bg/pack bg/ledger bg/complete bg/watch \
         kinds/kinds trust/verify web/html web/serve
# Unit tests, tests/unit/FOLDER/test_MODULE.c, one binary each
# (BUILD/unit-FOLDER-MODULE).
UNITS  = base/strbuf base/util base/out base/rng base/names base/fit base/when db/db db/db_stmt db/extsort \
         db/chain \
         sync/changes sync/changes_show sync/resolve sync/dbapply \
         sync/exchange sync/writers paper/page core/pack core/journal \
         core/seal \
         term/play term/watch term/complete \
         crs/page d6/page fb/page \
         crs/stats crs/sheet crs/item crs/roster crs/import crs/deck \
         crs/odds crs/combat crs/text crs/ledger crs/ledger_rows \
         crs/ledger_history crs/ledger_snap crs/report \
         d6/d6 d6/ledger fb/fb fb/sim fb/text fb/ledger bg/bg \
         bg/text bg/ledger core/cli core/ruling web/html
HEADERS = $(wildcard src/*/*.h)
# What db.h includes, for the generated sources that include it.
DBH    = src/db/db.h src/db/db_stmt.h src/db/db_base.h

LIBOBJ = $(LIBSRC:%=$(B)/%.o) $(B)/schema.o
BINS   = $(TOOLS:%=$(B)/%)
UNITBINS = $(foreach u,$(UNITS),$(B)/unit-$(subst /,-,$(u)))
MANS   = man/refkit.1 man/crs-stats.1 man/crs-draw.1 man/crs-combat.1 man/d6-roll.1 \
         man/fb-duel.1 man/bg-board.1 \
         man/refkit.7 \
         man/refkit.db.5

all: $(BINS) $(B)/schema-pg.sql

$(B):
	$(Q)mkdir -p $(B)

# The schema and each migration step, cut from schema.sql at its
# "-- @since" and "-- @migrate" lines (see its header).
$(B)/schema.c: schema.sql tools/embed-sql.sh | $(B)
	$(say) GEN $@
	$(Q)sh tools/embed-sql.sh schema.sql > $@.tmp
	$(Q)mv $@.tmp $@

$(B)/schema.o: $(B)/schema.c $(DBH)
	$(say) CC $<
	$(Q)$(CC) $(CFLAGS) -Wno-overlength-strings -c -o $@ $<

$(B)/%.o: src/%.c $(HEADERS) | $(B)
	@mkdir -p $(@D)
	$(say) CC $<
	$(Q)$(CC) $(CFLAGS) -c -o $@ $<

# A ledger's snapshots (src/core/journal.h) are used only at the version
# they were written with, and a family's version includes a checksum of
# its sources and of what derives with them: a rules change invalidates
# every snapshot rather than being trusted.
snap_sum = $(shell cat $(wildcard src/$(1)/*.[ch]) src/base/rng.c \
           src/core/pack.c src/core/journal.c | cksum | cut -d' ' -f1)
$(B)/crs/ledger.o: CFLAGS += -DSNAP_RULES_SUM=$(call snap_sum,crs)
$(B)/fb/ledger.o: CFLAGS += -DSNAP_RULES_SUM=$(call snap_sum,fb)
$(B)/bg/ledger.o: CFLAGS += -DSNAP_RULES_SUM=$(call snap_sum,bg)
$(B)/crs/ledger.o: $(wildcard src/crs/*.c)
$(B)/paper/draw.o: CFLAGS += $(DRAW_CFLAGS)
$(B)/fb/ledger.o: $(wildcard src/fb/*.c)
$(B)/bg/ledger.o: $(wildcard src/bg/*.c)

# Appended with q, not replaced with r: the game folders name their
# modules alike (crs/ledger.o, fb/ledger.o), and ar knows a member by its
# file name alone.
$(B)/librefkit.a: $(LIBOBJ)
	$(say) AR $@
	$(Q)rm -f $@
	$(Q)ar qcs $@ $(LIBOBJ)

# refkit serve's HTTP server (src/web/serve.c) is GNU libmicrohttpd,
# Debian's shared library, and the QR code of its address libqrencode's:
# refkit alone links them, the tools at the table never load them.
$(B)/refkit: LDLIBS += $(shell $(PKG_CONFIG) --libs libmicrohttpd libqrencode) \
                       -pthread

# Every tool links the same way: its main over the library.
$(BINS): $(B)/%: $(B)/cmd/%.o $(B)/librefkit.a $(B)/schema-pg.o
	$(say) LD $@
	$(Q)$(CC) $(LDFLAGS) -o $@ $< $(B)/librefkit.a $(B)/schema-pg.o $(LDLIBS)

# The PostgreSQL form of the schema (issue #22), written from schema.sql
# by tools/pgschema.c over the same library, with schema.sql's sections
# (schema-parts.c), from which it cuts an older version's schema.
$(B)/schema-parts.c: schema.sql tools/embed-sql.sh | $(B)
	$(say) GEN $@
	$(Q)sh tools/embed-sql.sh --parts schema.sql > $@.tmp
	$(Q)mv $@.tmp $@

$(B)/schema-parts.o: $(B)/schema-parts.c $(DBH)
	$(say) CC $<
	$(Q)$(CC) $(CFLAGS) -Wno-overlength-strings -c -o $@ $<

$(B)/pgschema: tools/pgschema.c $(B)/schema-parts.o $(B)/librefkit.a
	$(say) LD $@
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(B)/schema-parts.o \
	    $(B)/librefkit.a $(LDLIBS)

PGSQL = tools/pgcompat.sql tools/pgstation.sql

$(B)/schema-pg.sql: $(B)/pgschema $(PGSQL)
	$(say) GEN $@
	$(Q){ $(B)/pgschema && $(B)/pgschema --functions $(PGSQL); } > $@.tmp
	$(Q)mv $@.tmp $@

# ... and embedded in every tool with the migration steps from
# DBPG_SCHEMA_OLDEST (db/dbpg.c creates and migrates the schema from
# them).  Not in the library, which build/pgschema links before it
# exists.
$(B)/schema-pg.c: $(B)/pgschema $(PGSQL)
	$(say) GEN $@
	$(Q)$(B)/pgschema --c $(PGSQL) > $@.tmp
	$(Q)mv $@.tmp $@

$(B)/schema-pg.o: $(B)/schema-pg.c $(DBH) src/db/dbpg.h
	$(say) CC $<
	$(Q)$(CC) $(CFLAGS) -Wno-overlength-strings -c -o $@ $<

define unit_rule
$(B)/unit-$(subst /,-,$(1)).o: tests/unit/$(dir $(1))test_$(notdir $(1)).c \
    tests/unit/tap.h $(HEADERS) | $(B)
	$$(say) CC $$<
	$$(Q)$$(CC) $$(CFLAGS) -Itests/unit -DSRCDIR='"$$(CURDIR)"' -c -o $$@ $$<
endef
$(foreach u,$(UNITS),$(eval $(call unit_rule,$(u))))

$(B)/unit-%: $(B)/unit-%.o $(B)/librefkit.a $(B)/schema-pg.o
	$(say) LD $@
	$(Q)$(CC) $(LDFLAGS) -o $@ $< $(B)/librefkit.a $(B)/schema-pg.o $(LDLIBS)

# tests/pg/db-statements.sh's checker (issue #38): every statement of src/
# prepared on a server, through libpq linked here, not dbpg.c's dlopen.
$(B)/pg-statements: tests/pg/db-statements.c $(B)/librefkit.a $(B)/schema-pg.o
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(B)/librefkit.a $(B)/schema-pg.o \
	    $(LDLIBS) -lpq

# Fuzzing (tests/fuzz): clang's libFuzzer with ASan and UBSan, in
# build-fuzz.  The library and each tool's main() are compiled with exit,
# err and atexit renamed to the hooks in tests/fuzz/hooks.c, so that a
# harness can run a whole command in-process; the argv harness also wraps
# sqlite3_open*, so that no fuzzed --db path is ever opened.
FZ       = build-fuzz
FUZZCC  ?= clang
FUZZ_PARSERS = sheet deck d6 import-csv import-json fb bg changes \
               changes-show resolve
FUZZ_TARGETS = $(FUZZ_PARSERS:%=$(FZ)/fuzz-%) $(TOOLS:%=$(FZ)/fuzz-argv-%)
FUZZ_RENAME = -Dexit=refkit_fuzz_exit -D_exit=refkit_fuzz__exit \
              -Derr=refkit_fuzz_err -Derrx=refkit_fuzz_errx \
              -Dverr=refkit_fuzz_verr -Dverrx=refkit_fuzz_verrx \
              -Dwarn=refkit_fuzz_warn -Dwarnx=refkit_fuzz_warnx \
              -Dvwarn=refkit_fuzz_vwarn -Dvwarnx=refkit_fuzz_vwarnx \
              -Datexit=refkit_fuzz_atexit -Dfopen=refkit_fuzz_fopen
FUZZ_SAN = -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_CFLAGS = $(CSTD) -g -O1 -fno-omit-frame-pointer $(FUZZ_SAN) -pthread \
              -fsanitize=fuzzer-no-link $(SQLITE_CFLAGS) $(PQ_CFLAGS) -Isrc \
              -Itests/fuzz \
              -include tests/fuzz/hooks.h $(FUZZ_RENAME)
FUZZ_LIBS = $(shell $(PKG_CONFIG) --libs sqlite3) -lcsv -lgmp -lsodium \
            -lnettle \
            -ledit $(CURSES_LIBS) -lm -ldl -pthread
FUZZ_WRAP = -Wl,--wrap=sqlite3_open_v2,--wrap=sqlite3_open,--wrap=sqlite3_close \
            -Wl,--wrap=dbpg_open,--wrap=dbpg_open_existing,--wrap=play_run \
            -Wl,--wrap=serve_run
FUZZ_TIME ?= 60

$(FZ):
	mkdir -p $(FZ)

$(FZ)/schema.c: $(B)/schema.c | $(FZ)
	cp $(B)/schema.c $@

$(FZ)/hooks.o: tests/fuzz/hooks.c tests/fuzz/hooks.h | $(FZ)
	$(FUZZCC) $(CSTD) -g -O1 $(FUZZ_SAN) -Isrc -c -o $@ $<

$(FZ)/%.o: src/%.c $(HEADERS) tests/fuzz/hooks.h | $(FZ)
	@mkdir -p $(@D)
	$(FUZZCC) $(FUZZ_CFLAGS) -Dmain=refkit_tool_main -c -o $@ $<

$(FZ)/paper/draw.o: FUZZ_CFLAGS += $(DRAW_CFLAGS)

$(FZ)/schema.o: $(FZ)/schema.c $(DBH)
	$(FUZZCC) $(FUZZ_CFLAGS) -c -o $@ $<

$(FZ)/librefkit.a: $(LIBSRC:%=$(FZ)/%.o) $(FZ)/schema.o $(FZ)/hooks.o
	rm -f $@
	ar qcs $@ $^

$(FZ)/fuzz-import-csv.o: tests/fuzz/fuzz_import.c tests/fuzz/common.h $(HEADERS) | $(FZ)
	$(FUZZCC) $(FUZZ_CFLAGS) -DFORMAT=IMPORT_CSV -c -o $@ $<

$(FZ)/fuzz-import-json.o: tests/fuzz/fuzz_import.c tests/fuzz/common.h $(HEADERS) | $(FZ)
	$(FUZZCC) $(FUZZ_CFLAGS) -DFORMAT=IMPORT_JSON -c -o $@ $<

$(FZ)/fuzz-changes-show.o: tests/fuzz/fuzz_changes_show.c tests/fuzz/common.h $(HEADERS) | $(FZ)
	$(FUZZCC) $(FUZZ_CFLAGS) -c -o $@ $<

$(FZ)/fuzz-%.o: tests/fuzz/fuzz_%.c tests/fuzz/common.h $(HEADERS) | $(FZ)
	$(FUZZCC) $(FUZZ_CFLAGS) -c -o $@ $<

$(FZ)/fuzz-%: $(FZ)/fuzz-%.o $(FZ)/librefkit.a
	$(FUZZCC) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $< $(FZ)/librefkit.a $(FUZZ_LIBS)

$(FZ)/argv-%.o: tests/fuzz/argv.c tests/fuzz/hooks.h $(DBH) src/db/dbpg.h | $(FZ)
	$(FUZZCC) $(FUZZ_CFLAGS) -DTOOL='"$*"' -c -o $@ $<

$(FZ)/fuzz-argv-%: $(FZ)/argv-%.o $(FZ)/librefkit.a
	$(FUZZCC) $(FUZZ_SAN) -fsanitize=fuzzer $(FUZZ_WRAP) -o $@ $< \
	    $(FZ)/cmd/$*.o $(FZ)/librefkit.a $(FUZZ_LIBS)

$(foreach t,$(TOOLS),$(eval $(FZ)/fuzz-argv-$(t): $(FZ)/cmd/$(t).o))

fuzz-build: $(FUZZ_TARGETS)

# Each target for FUZZ_TIME seconds (default 60) on its corpus.
fuzz: fuzz-build
	@sh tests/fuzz/run.sh $(FZ) $(FUZZ_TIME) $(FUZZ_PARSERS) $(TOOLS:%=argv-%)

# The quick suite: unit tests, golden CLI transcripts, man page lint, a
# line per test file as it finishes.  Ends with "N passed, N failed".
# The unit tests' programs alone, so that tests/all.sh builds them in
# parallel with the rest (make check builds what is missing one by one).
units: $(UNITBINS)

check test: $(BINS) $(UNITBINS)
	@sh tests/run.sh $(B)

# Everything (what CI runs): the quick suite, again under ASan+UBSan and
# with the CLI cases under valgrind memcheck; the fuzz targets' regression
# inputs and a short run of each; the crash-safety and concurrency tests;
# cppcheck and clang-tidy.  Ends with "N passed, N failed".
check-full:
	@sh tests/all.sh

# The same, long: every golden case under valgrind, a minute of each fuzz
# target, 100 crashes (tests/all.sh); not run on every submission.
check-soak:
	@REFKIT_SOAK=1 sh tests/all.sh

lint-man:
	rm -rf $(B)/mantree && mkdir -p $(B)/mantree/man1 $(B)/mantree/man5 $(B)/mantree/man7
	cp man/*.1 $(B)/mantree/man1 && cp man/*.5 $(B)/mantree/man5 && cp man/*.7 $(B)/mantree/man7
	makewhatis $(B)/mantree
	MANPATH=$(B)/mantree mandoc -Tlint -Wstyle $(MANS)

bench: $(BINS)
	@sh bench/run.sh $(B)

install: $(BINS)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
	    $(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(MANDIR)/man7
	install -m 755 $(BINS) $(DESTDIR)$(BINDIR)
	install -m 644 man/*.1 $(DESTDIR)$(MANDIR)/man1
	install -m 644 man/*.5 $(DESTDIR)$(MANDIR)/man5
	install -m 644 man/*.7 $(DESTDIR)$(MANDIR)/man7
	install -d $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR)
	install -m 644 completions/refkit.bash $(DESTDIR)$(BASHCOMPDIR)/refkit
	# bash-completion loads a file by the command's name: one for all.
	for t in $(filter-out refkit,$(TOOLS)); do \
	    ln -sf refkit $(DESTDIR)$(BASHCOMPDIR)/$$t || exit 1; \
	done
	install -m 644 completions/_refkit $(DESTDIR)$(ZSHCOMPDIR)/_refkit

uninstall:
	rm -f $(TOOLS:%=$(DESTDIR)$(BINDIR)/%)
	rm -f $(TOOLS:%=$(DESTDIR)$(MANDIR)/man1/%.1) \
	    $(DESTDIR)$(MANDIR)/man5/refkit.db.5 \
	    $(DESTDIR)$(MANDIR)/man7/refkit.7
	rm -f $(TOOLS:%=$(DESTDIR)$(BASHCOMPDIR)/%) \
	    $(DESTDIR)$(ZSHCOMPDIR)/_refkit

clean:
	rm -rf build build-san build-vg build-fuzz

.PHONY: all units test check check-full check-soak fuzz fuzz-build lint-man bench install uninstall clean
.SECONDARY:
