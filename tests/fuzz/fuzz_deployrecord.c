/* fuzz_deployrecord.c: libFuzzer target for the record of folio deploy's
 * last deploy to a target (.folio-cache/deploy/KEY.record):
 * deploy_record_parse of a damaged file, as the next deploy reads it (the
 * format is in src/deploy/plan.c).
 *
 * Besides crashes, the target checks that a record parsed is sorted, each
 * path once, none empty or with a line break, and that what is parsed,
 * formatted and parsed again is the same record. */
#include "fuzz.h"

#include "deploy/internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct deploy_record r, again;
	if (deploy_record_parse((const char *)data, size, &r) != 0)
		return 0;
	for (size_t i = 0; i < r.n; i++)
		if (!r.v[i].rel[0] || strchr(r.v[i].rel, '\n') || (i && strcmp(r.v[i - 1].rel, r.v[i].rel) >= 0))
			abort();
	struct buf b;
	buf_init(&b);
	deploy_record_format(&r, &b);
	if (deploy_record_parse(b.p, b.len, &again) != 0 || again.n != r.n || strcmp(again.target, r.target))
		abort();
	for (size_t i = 0; i < r.n; i++)
		if (strcmp(r.v[i].rel, again.v[i].rel) || r.v[i].hash != again.v[i].hash || r.v[i].size != again.v[i].size)
			abort();
	buf_fini(&b);
	deploy_record_fini(&r);
	deploy_record_fini(&again);
	return 0;
}
