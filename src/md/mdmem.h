/* mdmem.h: a bump allocator for cmark-gfm, one per thread.
 *
 * cmark allocates every node, chunk and buffer of a document with malloc
 * and frees them one by one at the end: a tenth of a cold build went to
 * malloc and free. md_render instead gives its parser this allocator.
 * Allocations come from chunks the thread keeps between documents; free
 * gives back the newest block to its chunk and small blocks to free lists
 * of their size; mdmem_end releases everything at once.
 * cmark's allocator interface has no context pointer, so the state is the
 * calling thread's. */
#ifndef FOLIO_MDMEM_H
#define FOLIO_MDMEM_H

#include <cmark-gfm.h>
#include <stddef.h>

/* mdmem_begin: the allocator for one document on this thread. Calls nest:
 * memory is released at the outermost mdmem_end. Nodes and buffers made
 * with it must not outlive that call. */
cmark_mem *mdmem_begin(void);

/* mdmem_end: ends the document mdmem_begin started; at depth 0, every
 * block handed out since is released (chunks are kept for the next
 * document, up to a bound). */
void mdmem_end(void);

/* mdmem_current: this thread's allocator while a document is open (between
 * mdmem_begin and mdmem_end), else cmark's default one. Nodes added to a
 * document's tree are made with it. */
cmark_mem *mdmem_current(void);

/* mdmem_take: p, a block of this thread's open document, outlives the
 * document: for a large block (one with a malloc of its own: the HTML of
 * a big page), the malloc'd block that holds it is returned, p stays
 * valid until that is freed with free(), and mdmem_end leaves it alone.
 * NULL for a small block, which goes with the document as before: the
 * caller copies it. */
void *mdmem_take(void *p);

/* mdmem_in_use: bytes handed out and not yet released on this thread (for
 * tests). */
size_t mdmem_in_use(void);

/* mdmem_large: whether this thread's open document has taken more than
 * AHEAD_AFTER chunks (in md/mem.c: 8 MiB), from where it draws on the
 * reserve a helper thread fills. */
int mdmem_large(void);

/* mdmem_reserved: how many chunks this thread's open document took from
 * the reserve that a helper thread fills for a large document (in
 * md/mem.c); mdmem_reserve_ready: how many are ready now (for tests). */
size_t mdmem_reserved(void);
size_t mdmem_reserve_ready(void);

/* mdmem_prefault_pending: how many ranges of grown large blocks the
 * helper has still to map (for tests). */
size_t mdmem_prefault_pending(void);

#endif
