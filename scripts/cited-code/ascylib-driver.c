/* Single-threaded driver that counts one kind of operation of an ASCYLIB
 * structure (github.com/LPD-EPFL/ASCYLIB). Written for this project; it
 * contains none of ASCYLIB's code: scripts/cited-code-counts.py compiles it
 * against the objects of a checkout the user names, with a glue header
 * (-include) that maps DS_NEW, DS_CONTAINS, DS_ADD, DS_REMOVE and DS_SETUP to
 * that structure's API.
 *
 * Usage: driver PHASE INITIAL OPS SEED
 *   sets:       lookup_hit lookup_miss insert_hit insert_fail delete_hit delete_fail
 *   containers: push pop   (DS_CONTAINER defined)
 * The structure is filled with INITIAL distinct keys drawn uniformly from
 * 1..2*INITIAL (the range ASCYLIB's harness uses); then OPS operations of the
 * phase run in run_phase(), the only function callgrind collects
 * (--toggle-collect=run_phase; instrumentation starts just before it, so
 * the calls of the fill are not counted either). A *_hit phase uses distinct keys present
 * before the phase, a *_miss / *_fail phase (insert_fail: present keys)
 * distinct keys of the range absent before it, so every operation of the
 * phase has the named outcome. Prints "ok N" (operations that returned
 * success) on stderr so the caller can check it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <valgrind/callgrind.h> /* run under --instr-atstart=no: only run_phase is instrumented */

static unsigned long long rng_state;
static unsigned long long rng(void) { /* xorshift64* */
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * 2685821657736338717ULL;
}

static volatile unsigned long sink;

__attribute__((noinline)) long run_phase(DS_TYPE* s, const long* keys, long n, int kind) {
  long ok = 0;
  for (long i = 0; i < n; ++i) {
#ifdef DS_CONTAINER
    if (kind == 0)
      ok += DS_ADD(s, keys[i]) != 0;
    else
      ok += DS_REMOVE(s) != 0;
#else
    if (kind == 0)
      ok += DS_CONTAINS(s, keys[i]) != 0;
    else if (kind == 1)
      ok += DS_ADD(s, keys[i]) != 0;
    else
      ok += DS_REMOVE(s, keys[i]) != 0;
#endif
  }
  sink = (unsigned long)ok;
  return ok;
}

int main(int argc, char** argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: %s PHASE INITIAL OPS SEED\n", argv[0]);
    return 2;
  }
  const char* phase = argv[1];
  const long initial = atol(argv[2]);
  const long ops = atol(argv[3]);
  rng_state = 0x9E3779B97F4A7C15ULL ^ (unsigned long long)atoll(argv[4]);
  const long range = 2 * initial;

  ssalloc_init();
  /* the harness seeds the generator behind the skip list's levels from the
   * clock (seed_rand); fixed values make every count repeatable */
  static unsigned long fixed_seeds[8] = {12345678UL, 362436069UL, 521288629UL};
  seeds = fixed_seeds;
  alloc = (ssmem_allocator_t*)malloc(sizeof(ssmem_allocator_t));
  ssmem_alloc_init_fs_size(alloc, SSMEM_DEFAULT_MEM_SIZE, SSMEM_GC_FREE_SET_SIZE, 0);
  DS_SETUP(initial);
  DS_TYPE* s = DS_NEW(initial);

  long* keys = (long*)malloc(sizeof(long) * (ops > 0 ? ops : 1));
  int kind = 0;
#ifdef DS_CONTAINER
  for (long i = 0; i < initial; ++i) DS_ADD(s, 1 + (long)(rng() % (unsigned long long)range));
  for (long i = 0; i < ops; ++i) keys[i] = 1 + (long)(rng() % (unsigned long long)range);
  if (strcmp(phase, "push") == 0)
    kind = 0;
  else if (strcmp(phase, "pop") == 0)
    kind = 1;
  else {
    fprintf(stderr, "unknown phase %s\n", phase);
    return 2;
  }
  if (kind == 1 && ops > initial) {
    fprintf(stderr, "pop: OPS above INITIAL would pop an empty container\n");
    return 2;
  }
#else
  char* present = (char*)calloc((size_t)range + 1, 1);
  for (long n = 0; n < initial;) {
    long k = 1 + (long)(rng() % (unsigned long long)range);
    if (!present[k]) {
      if (!DS_ADD(s, k)) {
        fprintf(stderr, "insert of %ld failed during the fill\n", k);
        return 1;
      }
      present[k] = 1;
      ++n;
    }
  }
  int want_present;
  if (strcmp(phase, "lookup_hit") == 0) kind = 0, want_present = 1;
  else if (strcmp(phase, "lookup_miss") == 0) kind = 0, want_present = 0;
  else if (strcmp(phase, "insert_hit") == 0) kind = 1, want_present = 0;
  else if (strcmp(phase, "insert_fail") == 0) kind = 1, want_present = 1;
  else if (strcmp(phase, "delete_hit") == 0) kind = 2, want_present = 1;
  else if (strcmp(phase, "delete_fail") == 0) kind = 2, want_present = 0;
  else {
    fprintf(stderr, "unknown phase %s\n", phase);
    return 2;
  }
  long avail = want_present ? initial : range - initial;
  if (ops > avail) {
    fprintf(stderr, "%s: only %ld suitable keys\n", phase, avail);
    return 2;
  }
  char* used = (char*)calloc((size_t)range + 1, 1);
  for (long n = 0; n < ops;) {
    long k = 1 + (long)(rng() % (unsigned long long)range);
    if (present[k] == want_present && !used[k]) {
      used[k] = 1;
      keys[n++] = k;
    }
  }
#endif
  CALLGRIND_START_INSTRUMENTATION;
  long ok = run_phase(s, keys, ops, kind);
  CALLGRIND_STOP_INSTRUMENTATION;
  fprintf(stderr, "ok %ld\n", ok);
  return 0;
}
