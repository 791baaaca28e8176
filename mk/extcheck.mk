# extcheck.mk: what src/extcheck.c (folio check --external) links with:
# libcurl, from the system (Debian's libcurl4-openssl-dev, which
# scripts/deps.sh installs). Linked as a shared library: the static
# libcurl.a needs libraries Debian ships only as shared ones (GSSAPI,
# LDAP, nghttp2's, ...).
#
# For the Makefile, which includes this file, it adds to
#   WIRED_SRC, WIRED_TESTS   src/extcheck.c, tests/unit/test_extcheck.c
#   EXTRA_LIBS               -lcurl

WIRED_SRC += src/extcheck.c
WIRED_TESTS += tests/unit/test_extcheck.c
EXTRA_LIBS += -lcurl
