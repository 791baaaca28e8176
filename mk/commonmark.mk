# commonmark.mk: the CommonMark spec (npm commonmark-spec, fetched and
# checked by scripts/deps-commonmark.sh) whose examples the unit tests run
# through folio's Markdown (tests/unit/test_commonmark.c). Building the
# unit tests fetches it when it is missing.
COMMONMARK_STAMP := deps/commonmark/.stamp

# The stamp the script writes last; touched, so that it is newer than the
# script once the script has run.
$(COMMONMARK_STAMP): scripts/deps-commonmark.sh
	@sh scripts/deps-commonmark.sh && touch $@

$(or $(B),build/release)/unit_tests $(or $(ASAN_B),build/asan)/unit_tests: | $(COMMONMARK_STAMP)

