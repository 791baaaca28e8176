# images.mk: what src/images/ (the image codecs) links with: libjpeg-turbo,
# libpng, zlib and libwebp (with its mux library, which writes the colour
# profile) from the system, their static libraries (Debian 12 packages
# that scripts/deps.sh installs), and the resampler stb_image_resize2.h
# from deps/images/ (the Debian 13 libstb-dev's headers, which
# scripts/deps-images.sh fetches).
#
# For the Makefile, which includes this file, it adds to
#   EXTRA_LIBS       libwebpmux.a libwebp.a libjpeg.a libpng16.a libz.a
#                    (each the shared library when the system has no .a)
#   EXTRA_CPPFLAGS   stb's include path

IMAGES_B := $(or $(B),build/release)
IMAGES_ASAN_B := $(or $(ASAN_B),build/asan)
IMAGES_FUZZ_B := $(or $(FUZZ_B),build/fuzz)
IMAGES_DIR := deps/images

# static_or_l NAME: the system's libNAME.a, else -lNAME.
static_or_l = $(or $(wildcard $(SYS_LIB)/lib$(1).a),-l$(1))
# libpng before zlib, the mux library before libwebp: a static library's
# users come first.
EXTRA_LIBS += $(call static_or_l,webpmux) $(call static_or_l,webp) $(call static_or_l,jpeg) \
	$(call static_or_l,png16) $(call static_or_l,z)
# -isystem: stb's header is not held to folio's warnings.
EXTRA_CPPFLAGS += -isystem $(IMAGES_DIR)/usr/include

# The stamp scripts/deps-images.sh writes last (after deps.sh, whose
# private apt configuration it uses; deps.sh runs it too).
$(IMAGES_DIR)/.stamp: scripts/deps-images.sh | deps/.stamp
	@sh scripts/deps-images.sh && touch $@

# avifenc.c is built against libavif 1.x's avif.h (Debian 13's, in
# deps/avif/, which scripts/deps-avif.sh fetches; -I comes before the
# system's), avifenc15.c against
# the system's (0.11, Debian 12's libavif-dev): libavif itself is loaded at
# run time (src/images/avif.c), never linked; -ldl for dlopen on a libc
# older than 2.34.
$(foreach b,$(IMAGES_B) $(IMAGES_ASAN_B) $(IMAGES_FUZZ_B),$(b)/src/images/avifenc.o): \
	CPPFLAGS_ALL += -I deps/avif/usr/include
$(foreach b,$(IMAGES_B) $(IMAGES_ASAN_B) $(IMAGES_FUZZ_B),$(b)/src/images/avifenc.o): | deps/avif/.stamp
EXTRA_LIBS += -ldl
deps/avif/.stamp: scripts/deps-avif.sh | deps/.stamp
	@sh scripts/deps-avif.sh && touch $@

# The codecs include stb's header from deps/images/ (and the system's
# jpeglib.h, png.h and webp/ headers, as the unit tests' images module
# and the fuzz target do).
IMAGES_SRC := $(wildcard src/images/*.c)
IMAGES_OBJ := $(foreach b,$(IMAGES_B) $(IMAGES_ASAN_B) $(IMAGES_FUZZ_B),$(IMAGES_SRC:%.c=$(b)/%.o)) \
	$(IMAGES_B)/tests/unit/test_images.o $(IMAGES_ASAN_B)/tests/unit/test_images.o \
	$(IMAGES_FUZZ_B)/tests/fuzz/fuzz_imgdecode.o
$(IMAGES_OBJ): | $(IMAGES_DIR)/.stamp

# stbir.c compiles stb_image_resize2's implementation. Not order-only:
# the header unpacked again (another version) compiles it again. No
# contraction of multiplies and adds into FMAs (clang's default): stb's
# results are the same bytes on every machine only without them, and the
# build compares sites byte for byte. In the sanitizer flavours,
# AddressSanitizer only: stb offsets a table's pointer below the table on
# purpose (clang's UBSan says so; GCC's object-size check misreads a
# lookup in a table of functions), and its code is not ours to fix.
IMAGES_STB_FLAGS := -ffp-contract=off
$(IMAGES_B)/src/images/stbir.o: $(IMAGES_DIR)/.stamp
$(IMAGES_B)/src/images/stbir.o: CPPFLAGS_ALL += $(IMAGES_STB_FLAGS)

$(IMAGES_ASAN_B)/src/images/stbir.o: src/images/stbir.c mk/images.mk $(IMAGES_DIR)/.stamp
	$(call progress,CC,$<)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(DEPFLAGS) $(CPPFLAGS_ALL) $(CPPFLAGS) $(IMAGES_STB_FLAGS) -std=c11 $(WARN) \
		$(filter-out -fsanitize=%,$(ASAN_FLAGS)) -fsanitize=address -pthread -c $< -o $@

$(IMAGES_FUZZ_B)/src/images/stbir.o: src/images/stbir.c mk/images.mk $(IMAGES_DIR)/.stamp
	$(call progress,CC,$<)
	@mkdir -p $(dir $@)
	$(Q)$(FUZZ_CC) $(DEPFLAGS) $(CPPFLAGS_ALL) $(CPPFLAGS) $(IMAGES_STB_FLAGS) -std=c11 $(WARN) \
		$(filter-out $(FUZZ_SAN),$(FUZZ_FLAGS)) -fsanitize=address -pthread -c $< -o $@
