/* Template of docs/integration.md's software snippet (scripts/doc-snippets.py):
 * compiled freestanding, as C99, with warnings as errors. */
/* @snippet mmio_software */

/* The snippet's comment offers create_syncvar(&vars) for the addresses. */
uint64_t doc_snippet_new_variable(void);
uint64_t doc_snippet_new_variable(void) {
    syncron_arena_init(&vars, 0x80000000u, 4096u);
    return create_syncvar(&vars);
}
