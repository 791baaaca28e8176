# toml.mk: what src/formats/toml.cpp (the TOML reader) compiles with: toml++ in
# header-only mode, from deps/toml/ (the Debian 13 package's headers,
# fetched by scripts/deps-toml.sh). The shim is folio's one C++ file; the
# Makefile's C++ rules compile CXX_SRC with g++ (clang++ for fuzzing) and
# link libstdc++ statically into the release flavour.
#
# For the Makefile, which includes this file, it adds to
#   CXX_CPPFLAGS     toml++'s include path

TOML_B := $(or $(B),build/release)
TOML_ASAN_B := $(or $(ASAN_B),build/asan)
TOML_FUZZ_B := $(or $(FUZZ_B),build/fuzz)
TOML_DIR := deps/toml

# -isystem: toml++'s headers are not held to folio's warnings.
CXX_CPPFLAGS += -isystem $(TOML_DIR)/usr/include

# The stamp scripts/deps-toml.sh writes last (after deps.sh, whose private
# apt configuration it uses; deps.sh runs it too).
$(TOML_DIR)/.stamp: scripts/deps-toml.sh | deps/.stamp
	@sh scripts/deps-toml.sh && touch $@

# Not order-only: the headers unpacked again (another version, the fix of
# scripts/deps-toml.sh) compile the shim again.
$(TOML_B)/src/formats/toml.o $(TOML_ASAN_B)/src/formats/toml.o $(TOML_FUZZ_B)/src/formats/toml.o: $(TOML_DIR)/.stamp

