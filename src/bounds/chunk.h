/* chunk.h: glibc malloc's chunk layout, decoded here only.  Below each
 * block lie two words: prev_size (for an mmapped chunk: the offset of the
 * block's mapping before the chunk) and the size word (chunk size | flags).
 * Pure inline arithmetic on words the caller has found readable. */
#ifndef RWC_CHUNK_H
#define RWC_CHUNK_H

#include <stddef.h>
#include <stdint.h>

#define RWC_CHUNK_HDR (2 * sizeof(size_t)) /* the two words below a block */
#define RWC_CHUNK_IS_MMAPPED 2             /* a size word's flag */

/* The size word of the block at P. */
static inline size_t rwc_chunk_word(uintptr_t p)
{
	return ((const size_t *)p)[-1];
}

/* The usable bytes of a block whose size word is H, or 0 for a word that
 * cannot be one. */
static inline size_t rwc_chunk_usable(size_t h)
{
	size_t sz = h & ~(size_t)7;

	if (sz < 4 * sizeof(size_t) || sz > ((size_t)1 << 46))
		return 0;
	return sz - ((h & RWC_CHUNK_IS_MMAPPED) ? 2 : 1) * sizeof(size_t);
}

/* Was the block at P served with its own mapping?  Then that mapping is
 * [*LO, *HI). */
static inline int rwc_chunk_mapping(uintptr_t p, uintptr_t *lo, uintptr_t *hi)
{
	size_t h = rwc_chunk_word(p);

	if (!(h & RWC_CHUNK_IS_MMAPPED))
		return 0;
	*lo = p - RWC_CHUNK_HDR - ((const size_t *)p)[-2];
	*hi = p - RWC_CHUNK_HDR + (h & ~(size_t)7);
	return 1;
}

#endif
