/* fuzz_cfi.c: libFuzzer target for the .eh_frame interpreter (make fuzz):
 * the input is a pc, as a little-endian int32 offset from the image, then
 * the image, an .eh_frame_hdr at its start.  The search and the row must
 * stay inside the image and give only sane rows.  The same entry point
 * replays the kept corpus in make check (fuzz_replay.c). */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "frames/cfi.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rwc_cfi_mem m;
	struct rwc_cfi_row row;
	uintptr_t fde, pc;
	int32_t off;
	uint8_t *copy;

	if (size < 4)
		return 0;
	memcpy(&off, data, 4);
	/* The image in a block of its own size: a read past it is ASan's
	 * (make fuzz, make check-asan). */
	copy = malloc(size - 4 ? size - 4 : 1);
	if (!copy)
		return 0;
	memcpy(copy, data + 4, size - 4);
	m.lo = (uintptr_t)copy;
	m.hi = m.lo + (size - 4);
	m.ok = NULL;
	pc = m.lo + (uintptr_t)(intptr_t)off;
	fde = rwc_cfi_search(&m, m.lo, pc);
	if (fde && rwc_cfi_row(&m, fde, pc, &row)) {
		if (row.cfa_reg >= RWC_CFI_NREGS || row.cfa_reg < -1)
			abort();
		for (int i = 0; i < RWC_CFI_NREGS; i++)
			if (row.rule[i] > RWC_CFI_UNKNOWN ||
			    (row.rule[i] == RWC_CFI_REGISTER && (row.off[i] < 0 || row.off[i] >= RWC_CFI_NREGS)))
				abort();
	}
	/* Any 4-aligned offset taken for an FDE. */
	for (uintptr_t a = m.lo; a + 4 <= m.hi && a < m.lo + 4096; a += 4)
		rwc_cfi_row(&m, a, pc, &row);
	free(copy);
	return 0;
}
