/* Toy program whose callgrind outputs are the recorded inputs of
 * test_cited_code_counts.py (written for this project). Regenerate with
 * scripts/tests/cited-code-counts/record.sh. */
#include <pthread.h>
#include <stdio.h>
#include <valgrind/callgrind.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t b;
static volatile long counter;
static volatile int word;

/* stand-ins named as the lock and allocator functions the script looks for */
__attribute__((noinline)) void tas_lock(volatile int* l) { *l = 1; }
__attribute__((noinline)) void tas_unlock(volatile int* l) { *l = 0; }
__attribute__((noinline)) void* ssmem_alloc(void* a, long size) { return (char*)a + size; }

__attribute__((noinline)) void* do_work(void* arg) {
  (void)arg;
  pthread_barrier_wait(&b);
  for (int i = 0; i < 37; ++i) {
    pthread_mutex_lock(&m);
    counter += i;
    pthread_mutex_unlock(&m);
  }
  pthread_barrier_wait(&b);
  return 0;
}

__attribute__((noinline)) long run_phase(long n) {
  static char pool[1024];
  long s = 0;
  for (long i = 0; i < n; ++i) {
    tas_lock(&word);
    s += (long)ssmem_alloc(pool, i) & 1;
    tas_unlock(&word);
  }
  return s;
}

/* hand over hand: two locks held at once, then one, then none */
__attribute__((noinline)) long run_split(long n) {
  static volatile int a, b2;
  static volatile long x;
  for (long i = 0; i < n; ++i) {
    x += i;            /* outside */
    tas_lock(&a);
    x += 2 * i;        /* inside: a */
    tas_lock(&b2);
    x += 3 * i;        /* inside: a and b2 */
    tas_unlock(&a);
    x += 4 * i;        /* inside: b2 */
    tas_unlock(&b2);
  }
  return x;
}

int main(int argc, char** argv) {
  pthread_barrier_init(&b, 0, 1);
  if (argc > 1 && argv[1][0] == 's') { /* split mode: parts dumped at lock calls */
    CALLGRIND_START_INSTRUMENTATION;
    long s = run_split(3);
    CALLGRIND_STOP_INSTRUMENTATION;
    printf("%ld\n", s);
  } else if (argc > 1) { /* raw mode: instrument run_phase only */
    tas_lock(&word); /* calls outside run_phase must not be counted */
    tas_unlock(&word);
    CALLGRIND_START_INSTRUMENTATION;
    long s = run_phase(23);
    CALLGRIND_STOP_INSTRUMENTATION;
    printf("%ld\n", s);
  } else {
    do_work(0);
    printf("%ld\n", counter);
  }
  return 0;
}
