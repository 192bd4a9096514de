# refkit: tools for referees of live-action role-playing games.
#
#   make                    build every tool
#   make check              run every test (unit, CLI golden, man lint)
#   make SANITIZE=1 check   the same under ASan and UBSan
#   make bench              benchmarks against their peers (not in check)
#   make SHARED=1           link SQLite and libcsv dynamically
#   make install PREFIX=/usr/local DESTDIR=

PREFIX    ?= /usr/local
BINDIR    ?= $(PREFIX)/bin
MANDIR    ?= $(PREFIX)/share/man
CC        ?= cc
PKG_CONFIG ?= pkg-config

WARN   = -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes \
         -Wmissing-prototypes -Werror=implicit-function-declaration
CSTD   = -std=c17 -D_DEFAULT_SOURCE -D_GNU_SOURCE
OPT    ?= -O2 -g

ifeq ($(SANITIZE),1)
B      = build-san
OPT    = -O1 -g -fno-omit-frame-pointer
SANFLAGS = -fsanitize=address,undefined -fno-sanitize-recover=all
else
B      = build
SANFLAGS =
endif

# SQLite, libcsv and GMP are Debian's, linked in, as Fossil builds SQLite
# in: it saves each command the dynamic loader's work, which a GM at the
# table waits for.  A plain build links each tool fully statically (glibc
# too; the only warning is about dlopen, which SQLite's extension loading
# would use and refkit never calls); a sanitizer build links only the
# three libraries statically.  The cost is that a library update needs a
# rebuild; SHARED=1 links everything dynamically instead.
SQLITE_CFLAGS := $(shell $(PKG_CONFIG) --cflags sqlite3)
ifeq ($(SHARED),1)
DEPLIBS := $(shell $(PKG_CONFIG) --libs sqlite3) -lcsv -lgmp
else ifeq ($(SANITIZE),1)
# (Debian's libsqlite3.a needs only libm, dl and pthread; not zlib.)
DEPLIBS := -Wl,-Bstatic $(shell $(PKG_CONFIG) --libs sqlite3) -lcsv -lgmp \
           -Wl,-Bdynamic -lm -lpthread -ldl
else
STATIC  = -static
DEPLIBS := $(shell $(PKG_CONFIG) --libs sqlite3) -lcsv -lgmp -lm
endif
CFLAGS  += $(CSTD) $(WARN) $(OPT) $(SANFLAGS) $(SQLITE_CFLAGS) -Isrc
LDFLAGS += $(SANFLAGS) $(STATIC)
LDLIBS  += $(DEPLIBS)

TOOLS  = crs-stats crs-draw crs-combat d6-roll fb-duel bg-board
LIBSRC = util stats item sheet db roster out import cli rng deck odds combat ledger \
         d6 d6chart d6sheet fb fbio fbledger bg bgio bgledger
UNITS  = stats sheet item util out db roster import rng deck odds d6 fb bg

LIBOBJ = $(LIBSRC:%=$(B)/%.o) $(B)/schema.o
BINS   = $(TOOLS:%=$(B)/%)
UNITBINS = $(UNITS:%=$(B)/unit-%)
MANS   = man/crs-stats.1 man/crs-draw.1 man/crs-combat.1 man/d6-roll.1 \
         man/fb-duel.1 man/bg-board.1 \
         man/refkit.7 \
         man/refkit.db.5

all: $(BINS)

$(B):
	mkdir -p $(B)

$(B)/schema.c: schema.sql tools/embed-sql.sh | $(B)
	{ sh tools/embed-sql.sh db_schema_sql schema.sql && \
	  sed -n '/^-- @since 6/,/^-- @since 7/p' schema.sql | \
	    sed '$$d' > $(B)/schema-v6.sql && \
	  sh tools/embed-sql.sh db_schema_v6_sql $(B)/schema-v6.sql && \
	  sed -n '/^-- @since 7/,$$p' schema.sql > $(B)/schema-v7.sql && \
	  sh tools/embed-sql.sh db_schema_v7_sql $(B)/schema-v7.sql; } > $@.tmp
	mv $@.tmp $@

$(B)/schema.o: $(B)/schema.c
	$(CC) $(CFLAGS) -Wno-overlength-strings -c -o $@ $<

$(B)/%.o: src/%.c src/*.h | $(B)
	$(CC) $(CFLAGS) -c -o $@ $<

$(B)/librefkit.a: $(LIBOBJ)
	rm -f $@
	ar rcs $@ $(LIBOBJ)

$(B)/crs-%: $(B)/crs_%.o $(B)/librefkit.a
	$(CC) $(LDFLAGS) -o $@ $< $(B)/librefkit.a $(LDLIBS)

$(B)/d6-roll: $(B)/d6_roll.o $(B)/librefkit.a
	$(CC) $(LDFLAGS) -o $@ $< $(B)/librefkit.a $(LDLIBS)

$(B)/fb-duel: $(B)/fb_duel.o $(B)/librefkit.a
	$(CC) $(LDFLAGS) -o $@ $< $(B)/librefkit.a $(LDLIBS)

$(B)/bg-board: $(B)/bg_board.o $(B)/librefkit.a
	$(CC) $(LDFLAGS) -o $@ $< $(B)/librefkit.a $(LDLIBS)

$(B)/unit-%.o: tests/unit/test_%.c tests/unit/tap.h src/*.h | $(B)
	$(CC) $(CFLAGS) -Itests/unit -DSRCDIR='"$(CURDIR)"' -c -o $@ $<

$(B)/unit-%: $(B)/unit-%.o $(B)/librefkit.a
	$(CC) $(LDFLAGS) -o $@ $< $(B)/librefkit.a $(LDLIBS)

check: $(BINS) $(UNITBINS)
	@sh tests/run.sh $(B)

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

uninstall:
	rm -f $(TOOLS:%=$(DESTDIR)$(BINDIR)/%)
	rm -f $(TOOLS:%=$(DESTDIR)$(MANDIR)/man1/%.1) \
	    $(DESTDIR)$(MANDIR)/man5/refkit.db.5 \
	    $(DESTDIR)$(MANDIR)/man7/refkit.7

clean:
	rm -rf build build-san

.PHONY: all check lint-man bench install uninstall clean
.SECONDARY:
