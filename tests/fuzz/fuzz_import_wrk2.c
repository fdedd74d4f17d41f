// links: rd_collect
/*
 * fuzz_import_wrk2 - the wrk2 importer on arbitrary bytes (see
 * importer_fuzz.h for what is checked besides memory errors).
 */
#include "importer_fuzz.h"

extern const struct rd_importer rd_importer_wrk2;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_importer(&rd_importer_wrk2, data, size);
}
