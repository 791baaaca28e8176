# extcheck.mk: what src/check/extcheck.c (folio check --external) links with:
# libcurl, from the system (Debian's libcurl4-openssl-dev, which
# scripts/deps.sh installs). Linked as a shared library: the static
# libcurl.a needs libraries Debian ships only as shared ones (GSSAPI,
# LDAP, nghttp2's, ...).
#
# For the Makefile, which includes this file, it adds to
#   EXTRA_LIBS               -lcurl

EXTRA_LIBS += -lcurl
