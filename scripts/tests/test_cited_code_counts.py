#!/usr/bin/env python3
"""The parsers of scripts/cited-code-counts.py on recorded outputs.

The counts themselves need a checkout of the cited repositories (CRONO,
ASCYLIB), which the project does not ship and a test cannot fetch; these
tests check what the script computes from callgrind's and gcov's output,
on outputs recorded from scripts/tests/cited-code-counts/toy.c (our own toy
program; record.sh regenerates them).
"""
import importlib.util
import os
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "cited-code-counts")
spec = importlib.util.spec_from_file_location(
    "cited_code_counts", os.path.join(HERE, "..", "cited-code-counts.py"))
ccc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ccc)


class AnnotateParser(unittest.TestCase):
    def setUp(self):
        with open(os.path.join(DATA, "annotate.txt")) as f:
            self.p = ccc.parse_callgrind_annotate(f.read())

    def test_totals(self):
        self.assertEqual(self.p["total"]["Ir"], 2621)
        self.assertEqual(self.p["total"]["Dr"], 618)
        self.assertEqual(self.p["total"]["Dw"], 389)

    def test_sync_is_the_exported_pthread_entry_points(self):
        # lock 1,184 + unlock 851 + barrier 124; not the internal
        # __pthread_mutex_unlock_usercnt (inside unlock's cost) nor the
        # futex-internal.h part without an object (inside the barrier's)
        self.assertEqual(sorted(self.p["sync_functions"]),
                         ["pthread_barrier_wait@@GLIBC_2.34",
                          "pthread_mutex_lock@@GLIBC_2.2.5",
                          "pthread_mutex_unlock@@GLIBC_2.2.5"])
        self.assertEqual(self.p["sync"]["Ir"], 1184 + 851 + 124)
        self.assertEqual(self.p["sync"]["Dr"], 333 + 148 + 20)
        self.assertEqual(self.p["sync"]["Dw"], 148 + 111 + 14)

    def test_percent_with_a_space_does_not_drop_a_line(self):
        # "3 ( 4.73%)": the barrier's line has such a column
        line = ("  124 ( 4.73%)  20 ( 3.24%)  14 ( 3.60%)  5 (35.71%) 0 0 5 (35.71%) . .  "
                "./nptl/x.c:pthread_barrier_wait@@GLIBC_2.34 [/lib/libc.so.6]")
        text = ("Events shown:     Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\n"
                "200 (100.0%) 40 (100.0%) 20 (100.0%) . . . . . .  PROGRAM TOTALS\n" + line)
        self.assertEqual(ccc.parse_callgrind_annotate(text)["sync"]["Ir"], 124)

    def test_not_annotate_output(self):
        with self.assertRaises(ValueError):
            ccc.parse_callgrind_annotate("Events shown: Ir\nnothing here\n")


class RawParser(unittest.TestCase):
    def setUp(self):
        with open(os.path.join(DATA, "callgrind.out")) as f:
            self.p = ccc.parse_callgrind_out(f.read())

    def test_calls_inside_the_instrumented_function_only(self):
        # toy.c calls tas_lock once before instrumentation starts: not counted
        self.assertEqual(self.p["calls"]["tas_lock"], 23)
        self.assertEqual(self.p["calls"]["tas_unlock"], 23)
        self.assertEqual(self.p["calls"]["ssmem_alloc"], 23)

    def test_totals_and_call_cost(self):
        self.assertEqual(self.p["totals"]["Ir"], 424)
        self.assertEqual(self.p["call_cost"]["ssmem_alloc"]["Ir"], 46)

    def test_patterns(self):
        self.assertTrue(ccc.LOCK_FUNCTIONS.match("tas_lock.isra.0"))
        self.assertTrue(ccc.LOCK_FUNCTIONS.match("tas_trylock"))
        self.assertFalse(ccc.LOCK_FUNCTIONS.match("tas_init"))
        self.assertTrue(ccc.UNLOCK_FUNCTIONS.match("tas_unlock"))
        self.assertTrue(ccc.ALLOC_FUNCTIONS.match("ssmem_free"))


class CriticalSectionSplit(unittest.TestCase):
    """toy.c's run_split, three rounds of hand-over-hand locking, dumped
    after every tas_lock and before every tas_unlock (record.sh)."""

    def setUp(self):
        with open(os.path.join(DATA, "split.out")) as f:
            text = f.read()
        self.parts = ["# callgrind format" + p for p in text.split("# callgrind format")[1:]]

    def test_parts_in_order(self):
        r = ccc.critical_section_split(self.parts)
        self.assertEqual((r["parts"], r["locks"], r["unlocks"]), (13, 6, 6))

    def test_inside_is_every_part_with_a_lock_held(self):
        # per round: before the first lock 13 (15 less tas_lock's 2) in the
        # first round, 8 later (12 less the previous round's tas_unlock and
        # this round's tas_lock); held: 6 + 5 + 6 (8 less a lock or unlock
        # call each); after the last unlock 4 (6 less tas_unlock's 2)
        r = ccc.critical_section_split(self.parts)
        self.assertEqual(r["inside"]["Ir"], 3 * (6 + 5 + 6))
        self.assertEqual(r["outside"]["Ir"], 13 + 8 + 8 + 4)
        self.assertEqual((r["inside"]["Dr"], r["inside"]["Dw"]), (9, 18))
        self.assertEqual((r["outside"]["Dr"], r["outside"]["Dw"]), (5, 6))

    def test_a_nested_allocator_call_is_left_out_once(self):
        # ssalloc -> ssalloc_alloc, both kept by -fno-inline: only the outer call
        arcs = {("new_node", "ssalloc"): {"calls": 1, "Ir": 181, "Dr": 40, "Dw": 30},
                ("ssalloc", "ssalloc_alloc"): {"calls": 1, "Ir": 178, "Dr": 39, "Dw": 29},
                ("run_phase", "tas_lock.isra.0"): {"calls": 1, "Ir": 8, "Dr": 1, "Dw": 1},
                ("run_phase", "new_node"): {"calls": 1, "Ir": 200, "Dr": 45, "Dw": 33}}
        self.assertEqual(ccc.outermost_cost(arcs, ccc.ALLOC_FUNCTIONS),
                         {"Ir": 181, "Dr": 40, "Dw": 30})

    def test_unbalanced_runs_are_refused(self):
        # a run that ends holding a lock (a trylock that failed would look so)
        with self.assertRaisesRegex(ValueError, "ends with 1 locks held"):
            ccc.critical_section_split(self.parts[:1] + self.parts[-1:])
        # an unlock before any lock
        with self.assertRaisesRegex(ValueError, "unlock without a lock"):
            ccc.critical_section_split(self.parts[2:3])


class SourceHelpers(unittest.TestCase):
    def test_gcov_counts(self):
        text = ("        -:    0:Source:k.cc\n"
                "      299016:  103:            int neighbor = W_index[v][i];\n"
                "    #####:  104:   dead();\n"
                "     1023*:  107:            pthread_mutex_lock(&locks[neighbor]);\n"
                "        -:  108:   // comment\n")
        c = ccc.gcov_counts(text)
        self.assertEqual(c[103], 299016)
        self.assertEqual(c[104], 0)
        self.assertEqual(c[107], 1023)
        self.assertNotIn(108, c)

    def test_do_work_range(self):
        lines = ["int x;", "void* do_work(void* a)", "{", "  if (a) {", "  }",
                 "  // }", "  return 0;", "}", "int main() { return 0; }"]
        self.assertEqual(ccc.do_work_range(lines), (1, 8))


if __name__ == "__main__":
    unittest.main()
