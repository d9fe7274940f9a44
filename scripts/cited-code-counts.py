#!/usr/bin/env python3
"""Dynamic instruction and lock counts of the code the paper cites.

Builds the graph kernels of a CRONO checkout (github.com/masabahmad/CRONO)
or the lock-based structures of an ASCYLIB checkout
(github.com/LPD-EPFL/ASCYLIB), given by their path, runs them on one host
thread and counts with valgrind's callgrind: per edge visited and per lock
acquisition (CRONO), per operation of each kind (ASCYLIB), the instructions,
data reads and writes executed outside synchronization, and the locks taken.

Nothing of the cited code is copied into this project: the script compiles
and runs the checkout the user names; the ASCYLIB driver
(scripts/cited-code/ascylib-driver.c) is ours. Method and the documented
counts with their commits: docs/workloads.md, "Lock protocols against the
cited code" and "Work per edge / per operation, measured".

CRONO: `valgrind --tool=callgrind --cache-sim=yes --toggle-collect=do_work(void*)`
on a `g++ -O2 -g` build (the inclusive cost of the pthread calls inside
do_work is synchronization, subtracted); edges visited and lock acquisitions
are gcov's exact line counts of a `g++ -O0 --coverage` build on the same
input (the kernel's own synthetic graph).

ASCYLIB: each structure's objects from its own Makefile, linked with our
driver; locks from a `LOCK=TAS -fno-inline` build (calls of the lock
functions inside run_phase), instructions from a `LOCK=NONE` build less the
allocator's calls.

Usage:
  scripts/cited-code-counts.py crono PATH [--vertices N] [--degree D] [--json OUT] [--commit C]
  scripts/cited-code-counts.py ascylib PATH [--structures a,b] [--json OUT] [--commit C]
  scripts/cited-code-counts.py parse-callgrind ANNOTATE_OUTPUT   (the parser alone)
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

# kernel name -> (source file in the checkout, regex of the line executed once
# per edge visited). The line is searched inside do_work only.
CRONO_KERNELS = {
    "bfs": ("apps/bfs/bfs.cc", r"int\s+neighbor\s*=\s*W_index\[v\]\[i\]\s*;"),
    "cc": ("apps/connected_components/connected_components_lock.cc",
           r"int\s+neighbor\s*=\s*W_index\[v\]\[i\]\s*;"),
    "sssp": ("apps/sssp/sssp.cc", r"if\s*\(\s*\(\s*D\[W_index\[v\]\[i\]\]\s*>"),
    "pr": ("apps/pagerank/pagerank_lock.cc", r"pgtmp\[v\]\s*=\s*pgtmp\[v\]\s*\+"),
    "tc": ("apps/triangle_counting/triangle_counting_lock.cc",
           r"int\s+neighbor\s*=\s*W_index\[v\]\[i\]\s*;"),
}

SYNC_FUNCTION = re.compile(
    r"pthread_(mutex_(lock|unlock|trylock)|barrier_wait|spin_(lock|unlock))")
LOCK_CALL = re.compile(r"^\s*pthread_mutex_lock\s*\(")


def finish(a, out, work):
    """Writes the JSON (complete or not at all: a temporary renamed) and removes or keeps the work directory."""
    if a.json:
        tmp = f"{a.json}.tmp.{os.getpid()}"
        with open(tmp, "w") as f:
            json.dump(out, f, indent=2)
        os.replace(tmp, a.json)
    if not a.keep:
        shutil.rmtree(work)
    else:
        print(f"work directory kept: {work}")


def run(cmd, cwd, **kw):
    r = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        sys.stderr.write(r.stderr[-2000:])
        raise subprocess.CalledProcessError(r.returncode, cmd)
    return r


def parse_callgrind_annotate(text):
    """Totals and the synchronization share from `callgrind_annotate
    --inclusive=yes --threshold=100` output.

    Returns {"events": [...], "total": {event: n}, "sync": {event: n},
    "sync_functions": [names]}. The synchronization share sums the inclusive
    cost of the exported pthread lock/unlock/barrier entry points
    (name@@GLIBC_..., with their object in brackets): internal helpers such
    as __pthread_mutex_unlock_usercnt are inside their caller's inclusive
    cost, and the "=> callee" lines of the annotated source repeat a callee's
    cost, so neither is summed.
    """
    events = None
    total = None
    sync = None
    names = []
    for line in text.splitlines():
        if line.startswith("Events shown:"):
            events = line.split(":", 1)[1].split()
            sync = {e: 0 for e in events}
            continue
        if events is None:
            continue
        # cost columns: "1,234 (12.3%)", "3 ( 4.6%)" or "." per event
        fields = re.sub(r"\(\s*[\d.]+%\)", " ", line).split()
        if not fields:
            continue
        values = []
        i = 0
        while i < len(fields) and len(values) < len(events):
            f = fields[i]
            if f == ".":
                values.append(0)
                i += 1
            elif re.fullmatch(r"[\d,]+", f):
                values.append(int(f.replace(",", "")))
                i += 1
            else:
                break
        if len(values) != len(events):
            continue
        rest = " ".join(fields[i:])
        if rest.startswith("=>"):
            continue  # a call in the annotated source: already in the callee
        if rest.startswith("PROGRAM TOTALS"):
            total = dict(zip(events, values))
            continue
        fn = rest.split(" [")[0]
        fname = fn.split(":", 1)[1] if ":" in fn else fn
        if (SYNC_FUNCTION.search(fname) and "@@GLIBC" in fname
                and " [" in rest):
            names.append(fname)
            for e, v in zip(events, values):
                sync[e] += v
    if total is None:
        raise ValueError("no PROGRAM TOTALS line: not callgrind_annotate output")
    return {"events": events, "total": total, "sync": sync,
            "sync_functions": names}


def do_work_range(lines):
    """First and one-past-last line index of the function do_work."""
    start = None
    for i, l in enumerate(lines):
        if re.match(r"\s*void\s*\*\s*do_work\s*\(", l):
            start = i
            break
    if start is None:
        raise ValueError("no do_work function")
    depth = 0
    seen = False
    for j in range(start, len(lines)):
        code = lines[j].split("//")[0]
        depth += code.count("{") - code.count("}")
        if "{" in code:
            seen = True
        if seen and depth == 0:
            return start, j + 1
    return start, len(lines)


def gcov_counts(gcov_text):
    """Line number -> execution count from a .gcov file ('#####' = 0)."""
    counts = {}
    for l in gcov_text.splitlines():
        m = re.match(r"\s*([\d#*=-]+)\*?:\s*(\d+):", l)
        if not m:
            continue
        c, n = m.group(1), int(m.group(2))
        if c.startswith("#") or c.startswith("="):
            counts[n] = 0
        elif c != "-":
            counts[n] = int(c.rstrip("*"))
    return counts


def measure_crono_kernel(checkout, name, vertices, degree, work):
    src_rel, edge_re = CRONO_KERNELS[name]
    src = os.path.join(checkout, src_rel)
    base = os.path.splitext(os.path.basename(src))[0]
    kdir = os.path.join(work, name)
    os.makedirs(kdir, exist_ok=True)
    with open(src, encoding="utf-8", errors="replace") as f:
        lines = f.read().splitlines()
    lo, hi = do_work_range(lines)
    edge_lines = [i + 1 for i in range(lo, hi) if re.search(edge_re, lines[i])]
    if not edge_lines:
        raise ValueError(f"{name}: no edge line /{edge_re}/ in do_work")
    lock_lines = [i + 1 for i in range(lo, hi) if LOCK_CALL.search(lines[i])]
    args = ["0", "1", str(vertices), str(degree)]  # synthetic graph, 1 thread

    # exact line counts (gcov, -O0)
    # (built from the checkout in place: the kernels include ../../common)
    run(["g++", "-O0", "--coverage", "--std=c++0x", "-w", src,
         "-o", os.path.join(kdir, base + "_cov"), "-lpthread", "-lrt"], kdir)
    run(["./" + base + "_cov"] + args, kdir)
    run(["gcov", "-o", ".", base + "_cov-" + base + ".gcda"], kdir)
    with open(os.path.join(kdir, base + ".cc.gcov")) as f:
        counts = gcov_counts(f.read())
    edges = counts.get(edge_lines[0], 0)
    locks = sum(counts.get(n, 0) for n in lock_lines)

    # instructions (callgrind, -O2)
    run(["g++", "-O2", "-g", "--std=c++0x", "-w", src, "-o", base,
         "-lpthread", "-lrt"], kdir)
    # LD_BIND_NOW: the dynamic linker resolves the pthread symbols at start-up,
    # not at their first call inside do_work (a fixed cost of some 10^4
    # instructions that would otherwise be counted as the kernel's)
    run(["valgrind", "--tool=callgrind", "--cache-sim=yes",
         "--toggle-collect=do_work(void*)",
         "--callgrind-out-file=callgrind.out", "./" + base] + args, kdir,
        env=dict(os.environ, LD_BIND_NOW="1"))
    ann = run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", "--auto=no",
               "callgrind.out"], kdir).stdout
    with open(os.path.join(kdir, "annotate.txt"), "w") as f:
        f.write(ann)
    p = parse_callgrind_annotate(ann)
    t, s = p["total"], p["sync"]
    ir = t["Ir"] - s["Ir"]
    dr = t.get("Dr", 0) - s.get("Dr", 0)
    dw = t.get("Dw", 0) - s.get("Dw", 0)
    r = {
        "kernel": name, "source": src_rel, "vertices": vertices,
        "degree": degree, "edge_line": edge_lines[0], "lock_lines": lock_lines,
        "edges_visited": edges, "lock_acquisitions": locks,
        "Ir_total": t["Ir"], "Ir_sync": s["Ir"], "Ir": ir, "Dr": dr, "Dw": dw,
    }
    if edges:
        r["per_edge"] = {"instructions": ir / edges,
                         "loads": dr / edges, "stores": dw / edges,
                         "other_instructions": (ir - dr - dw) / edges}
    if locks:
        r["per_lock"] = {"instructions": ir / locks,
                         "loads": dr / locks, "stores": dw / locks}
    return r


def git_commit(path):
    r = subprocess.run(["git", "rev-parse", "HEAD"], cwd=path,
                       capture_output=True, text=True)
    return r.stdout.strip() if r.returncode == 0 else None


def cmd_crono(a):
    checkout = os.path.abspath(a.path)
    work = tempfile.mkdtemp(prefix="crono-counts-")
    results = []
    for name in a.kernels.split(","):
        results.append(measure_crono_kernel(checkout, name, a.vertices,
                                            a.degree, work))
    out = {"repository": "masabahmad/CRONO",
           "commit": a.commit or git_commit(checkout),
           "compiler": run(["g++", "--version"], work).stdout.splitlines()[0],
           "valgrind": run(["valgrind", "--version"], work).stdout.strip(),
           "kernels": results}
    print(f"CRONO {out['commit'] or '(commit unknown)'}; {out['compiler']}; "
          f"{out['valgrind']}; synthetic graph N={a.vertices} DEG={a.degree}, "
          f"1 thread")
    print(f"{'kernel':6} {'edges':>9} {'locks':>7} {'instr/edge':>10} "
          f"{'ld/edge':>8} {'st/edge':>8} {'other/edge':>10} {'instr/lock':>10}")
    for r in results:
        pe = r.get("per_edge", {})
        pl = r.get("per_lock", {})
        print(f"{r['kernel']:6} {r['edges_visited']:9} "
              f"{r['lock_acquisitions']:7} {pe.get('instructions', 0):10.2f} "
              f"{pe.get('loads', 0):8.2f} {pe.get('stores', 0):8.2f} "
              f"{pe.get('other_instructions', 0):10.2f} "
              f"{pl.get('instructions', float('nan')):10.1f}")
    finish(a, out, work)


# ---------------------------------------------------------------------------
# ASCYLIB (github.com/LPD-EPFL/ASCYLIB): locks and instructions per operation

SET_PHASES = ["lookup_hit", "lookup_miss", "insert_hit", "insert_fail",
              "delete_hit", "delete_fail"]

# name -> source directory, make variables, API glue (the structure's entry
# points and the set-up its harness does), phases, initial size (Table 6),
# operations per phase. The glue names functions of the checkout; it holds
# none of their code.
ASCYLIB_STRUCTURES = {
    "stack": ("src/stack-lock", [], "intset.h", """
#define DS_CONTAINER 1
#define DS_TYPE mstack_t
#define DS_NEW(n) mstack_new()
#define DS_ADD(s, k) mstack_add((s), (k), (k))
#define DS_REMOVE(s) mstack_remove(s)
#define DS_SETUP(n) ((void)0)
""", ["push", "pop"], 100000, 1000),
    "queue": ("src/queue-ms_lb", [], "intset.h", """
#define DS_CONTAINER 1
#define DS_TYPE queue_t
#define DS_NEW(n) queue_new()
#define DS_ADD(s, k) queue_add((s), (k), (k))
#define DS_REMOVE(s) queue_remove(s)
#define DS_SETUP(n) ((void)0)
""", ["push", "pop"], 100000, 1000),
    "array_map": ("src/map-lock", [], "intset.h", """
#define DS_TYPE intset_l_t
#define DS_NEW(n) set_new_l(n)
#define DS_CONTAINS(s, k) set_contains_l((s), (k))
#define DS_ADD(s, k) set_add_l((s), (k), (k))
#define DS_REMOVE(s, k) set_remove_l((s), (k))
#define DS_SETUP(n) ((void)0)
""", ["lookup_hit", "lookup_miss", "insert_fail", "delete_hit",
      "delete_fail"], 10, 5),
    "skip_list": ("src/skiplist-herlihy_lb", [], "intset.h", """
#define DS_TYPE sl_intset_t
#define DS_NEW(n) sl_set_new()
#define DS_CONTAINS(s, k) sl_contains((s), (k))
#define DS_ADD(s, k) sl_add((s), (k), (k))
#define DS_REMOVE(s, k) sl_remove((s), (k))
static void ds_setup(long n) { /* the harness's values: floor(log2 n) levels, */
  unsigned l = 0;              /* a node of that many pointers, in 32-byte units */
  while ((1UL << (l + 1)) <= (unsigned long)n) ++l;
  levelmax = l;
  size_pad_32 = (unsigned)((sizeof(sl_node_t) + l * sizeof(sl_node_t*) + 31) & ~(size_t)31);
}
#define DS_SETUP(n) ds_setup(n)
""", SET_PHASES, 5000, 500),
    "hash_table": ("src/hashtable-coupling", [], "hashtable-lock.h", """
#define DS_TYPE ht_intset_t
#define DS_NEW(n) ht_new()
#define DS_CONTAINS(s, k) ht_contains((s), (k))
#define DS_ADD(s, k) ht_add((s), (k), (k))
#define DS_REMOVE(s, k) ht_remove((s), (k))
#define DS_SETUP(n) (maxhtlength = (unsigned)(n)) /* load factor 1 */
""", SET_PHASES, 1000, 200),
    "hash_table_gl": ("src/hashtable-coupling", ["G=GL"], "hashtable-lock.h", None,
                      SET_PHASES, 1000, 200),
    "linked_list": ("src/linkedlist-coupling", [], "intset.h", """
#define DS_TYPE intset_l_t
#define DS_NEW(n) set_new_l()
#define DS_CONTAINS(s, k) set_contains_l((s), (k))
#define DS_ADD(s, k) set_add_l((s), (k), (k))
#define DS_REMOVE(s, k) set_remove_l((s), (k))
#define DS_SETUP(n) ((void)0)
""", SET_PHASES, 20000, 50),
    "bst_drachsler": ("src/bst-drachsler", [], "bst-drachsler.h", """
#define DS_TYPE node_t
#define DS_NEW(n) initialize_tree()
#define DS_CONTAINS(s, k) bst_contains((k), (s))
#define DS_ADD(s, k) bst_insert((k), (k), (s))
#define DS_REMOVE(s, k) bst_remove((k), (s))
#define DS_SETUP(n) ((void)0)
""", SET_PHASES, 10000, 1000),
    "bst_drachsler_no_ro": ("src/bst-drachsler", ["RO_FAIL=0"], "bst-drachsler.h",
                            None, SET_PHASES, 10000, 1000),
}
ASCYLIB_STRUCTURES["hash_table_gl"] = ASCYLIB_STRUCTURES["hash_table_gl"][:3] + \
    (ASCYLIB_STRUCTURES["hash_table"][3],) + ASCYLIB_STRUCTURES["hash_table_gl"][4:]
ASCYLIB_STRUCTURES["bst_drachsler_no_ro"] = \
    ASCYLIB_STRUCTURES["bst_drachsler_no_ro"][:3] + \
    (ASCYLIB_STRUCTURES["bst_drachsler"][3],) + \
    ASCYLIB_STRUCTURES["bst_drachsler_no_ro"][4:]

LOCK_FUNCTIONS = re.compile(r"^tas_(lock|trylock)(\.|$)")  # GCC clones: tas_lock.isra.0
UNLOCK_FUNCTIONS = re.compile(r"^tas_unlock(\.|$)")
ALLOC_FUNCTIONS = re.compile(r"^(ssmem_alloc|ssmem_free|ssalloc\w*|ssfree\w*)(\.|$)")


def parse_callgrind_out(text):
    """Raw callgrind.out: event totals, and per called function the number of
    calls and their inclusive cost. Returns {"events": [...], "totals":
    {event: n}, "calls": {name: n}, "call_cost": {name: {event: n}}}."""
    names = {}
    events = []
    totals = None
    calls = {}
    call_cost = {}
    callee = None   # the function named by the last cfn= line
    pending = None  # callee whose call cost line comes next

    def name_of(spec):
        m = re.match(r"\((\d+)\)(?:\s+(.*))?$", spec.strip())
        if not m:
            return spec.strip()
        if m.group(2) is not None:
            names[m.group(1)] = m.group(2)
        return names.get(m.group(1), "?")

    for line in text.splitlines():
        if line.startswith("events:"):
            events = line.split(":", 1)[1].split()
        elif line.startswith(("totals:", "summary:")):
            vals = [int(v) for v in line.split(":", 1)[1].split()]
            totals = dict(zip(events, vals + [0] * (len(events) - len(vals))))
        elif line.startswith(("fn=", "cfn=", "cfi=", "cob=", "ob=", "fl=",
                              "fi=", "fe=")):
            key, spec = line.split("=", 1)
            if key in ("fn", "cfn"):
                n = name_of(spec)
                if key == "cfn":
                    callee = n
        elif line.startswith("calls="):
            count = int(line.split("=", 1)[1].split()[0])
            calls[callee] = calls.get(callee, 0) + count
            pending = callee
        elif pending is not None and line and (line[0].isdigit() or line[0] in "+-*"):
            vals = [int(v) for v in line.split()[1:]]
            c = call_cost.setdefault(pending, {e: 0 for e in events})
            for e, v in zip(events, vals):
                c[e] += v
            pending = None
    if totals is None:
        raise ValueError("no totals line: not a callgrind output file")
    return {"events": events, "totals": totals, "calls": calls,
            "call_cost": call_cost}



def make_flags(cwd, make_vars, builddir, bindir, lock, env):
    """Compile and link command lines of the harness, from `make -n`."""
    out = run(["make", "-n", "VERSION=O2", "LOCK=" + lock, "BUILDIR=" + builddir,
               "BINDIR=" + bindir] + make_vars, cwd, env=env).stdout
    compile_line = link_line = None
    for l in out.splitlines():
        if "-c" in l.split() and "test.o" in l:
            compile_line = l
        elif "test.o" in l and " -o " in l and "-c" not in l.split():
            link_line = l
    if not compile_line or not link_line:
        raise ValueError(f"{cwd}: could not read the harness's build commands")
    return compile_line, link_line


def build_ascylib(checkout, name, lock, extra_cflags, work):
    srcdir, make_vars, header, glue, _, _, _ = ASCYLIB_STRUCTURES[name]
    cwd = os.path.join(checkout, srcdir)
    tag = f"{name}-{lock}"
    builddir = os.path.join(work, "build-" + tag)
    bindir = os.path.join(work, "bin-" + tag)
    os.makedirs(builddir, exist_ok=True)
    env = dict(os.environ)
    env["CFLAGS"] = extra_cflags  # appended to by the harness's Makefile
    # the harness's own link needs a non-PIE toolchain; only its objects are used
    subprocess.run(["make", "-k", "VERSION=O2", "LOCK=" + lock, "BUILDIR=" + builddir,
                    "BINDIR=" + bindir] + make_vars, cwd=cwd, env=env,
                   capture_output=True, text=True)
    compile_line, link_line = make_flags(cwd, make_vars, builddir, bindir, lock, env)
    glue_path = os.path.join(work, f"glue-{name}.h")
    with open(glue_path, "w") as f:
        f.write('#include "utils.h"\n#include "ssmem.h"\n'
                f'#include "{header}"\n'
                "__thread unsigned long* seeds;\n" + glue)
    driver = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                          "cited-code", "ascylib-driver.c")
    dobj = os.path.join(builddir, "driver.o")
    cc = compile_line.split()
    i = cc.index("-o")
    cc[i + 1] = dobj
    cc = [a for a in cc if not a.endswith(".c")] + ["-w", "-I.", "-include",
                                                   glue_path, driver]
    run(cc, cwd)
    ln = link_line.split()
    ln = [dobj if a.endswith("/test.o") else a for a in ln]
    for a in ln:  # objects the link names but the Makefile never builds (src/clh.c)
        if a.endswith(".o") and not os.path.exists(a):
            src = os.path.join(checkout, "src", os.path.basename(a)[:-2] + ".c")
            cc = compile_line.split()
            cc[cc.index("-o") + 1] = a
            run([x for x in cc if not x.endswith(".c")] + ["-w", src], cwd)
    exe = os.path.join(work, "driver-" + tag)
    i = ln.index("-o")
    ln[i + 1] = exe
    run(ln + ["-no-pie"], cwd)
    return exe


def callgrind_phase(exe, phase, initial, ops, work, cache_sim):
    out = os.path.join(work, f"cg-{os.path.basename(exe)}-{phase}.out")
    # callgrind counts calls even where it does not collect costs: the driver
    # turns instrumentation on just around run_phase
    cmd = ["valgrind", "--tool=callgrind", "--instr-atstart=no",
           "--toggle-collect=run_phase",
           "--callgrind-out-file=" + out]
    if cache_sim:
        cmd.append("--cache-sim=yes")
    r = run(cmd + [exe, phase, str(initial), str(ops), "1"], work)
    ok = int(re.search(r"^ok (\d+)$", r.stderr, re.M).group(1))
    with open(out) as f:
        return parse_callgrind_out(f.read()), ok


def measure_ascylib(checkout, name, work):
    _, _, _, _, phases, initial, ops = ASCYLIB_STRUCTURES[name]
    # -fgnu89-inline: functions declared plain `inline` (C99: no external
    # definition) still get one when calls are not inlined
    counting = build_ascylib(checkout, name, "TAS", "-fno-inline -fgnu89-inline", work)
    plain = build_ascylib(checkout, name, "NONE", "", work)
    rows = []
    def count(calls, pattern):
        return sum(n for f, n in calls.items() if pattern.match(f))

    for ph in phases:
        cnt, ok = callgrind_phase(counting, ph, initial, ops, work, False)
        locks = count(cnt["calls"], LOCK_FUNCTIONS)
        unlocks = count(cnt["calls"], UNLOCK_FUNCTIONS)
        mea, ok2 = callgrind_phase(plain, ph, initial, ops, work, True)
        t = mea["totals"]
        alloc = {e: sum(c.get(e, 0) for f, c in mea["call_cost"].items()
                        if ALLOC_FUNCTIONS.match(f)) for e in ("Ir", "Dr", "Dw")}
        ir = t["Ir"] - alloc["Ir"]
        dr = t.get("Dr", 0) - alloc["Dr"]
        dw = t.get("Dw", 0) - alloc["Dw"]
        rows.append({"phase": ph, "ops": ops, "succeeded": ok,
                     "succeeded_plain_build": ok2,
                     "locks_per_op": locks / ops, "unlocks_per_op": unlocks / ops,
                     "instructions_per_op": ir / ops, "loads_per_op": dr / ops,
                     "stores_per_op": dw / ops,
                     "allocator_instructions_per_op": alloc["Ir"] / ops})
    return {"structure": name, "source": ASCYLIB_STRUCTURES[name][0],
            "make": ASCYLIB_STRUCTURES[name][1], "initial": initial,
            "phases": rows}


def cmd_ascylib(a):
    checkout = os.path.abspath(a.path)
    work = tempfile.mkdtemp(prefix="ascylib-counts-")
    res = [measure_ascylib(checkout, n, work) for n in a.structures.split(",")]
    out = {"repository": "LPD-EPFL/ASCYLIB", "commit": a.commit or git_commit(checkout),
           "structures": res}
    print(f"ASCYLIB {out['commit'] or '(commit unknown)'}; 1 thread; "
          "locks from a -O2 -fno-inline TAS build, instructions from a -O2 "
          "LOCK=NONE build (allocator calls excluded)")
    print(f"{'structure':20} {'phase':12} {'init':>6} {'ok':>5}/{'ops':<5} "
          f"{'locks/op':>8} {'instr/op':>9} {'ld/op':>7} {'st/op':>6}")
    for r in res:
        for p in r["phases"]:
            print(f"{r['structure']:20} {p['phase']:12} {r['initial']:6} "
                  f"{p['succeeded']:5}/{p['ops']:<5} {p['locks_per_op']:8.2f} "
                  f"{p['instructions_per_op']:9.1f} {p['loads_per_op']:7.1f} "
                  f"{p['stores_per_op']:6.1f}")
    finish(a, out, work)


def cmd_parse(a):
    with open(a.file) as f:
        p = parse_callgrind_annotate(f.read())
    json.dump(p, sys.stdout, indent=2, sort_keys=True)
    print()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("crono", help="count the CRONO kernels of a checkout")
    c.add_argument("path", help="a checkout of github.com/masabahmad/CRONO")
    c.add_argument("--vertices", type=int, default=1024)
    c.add_argument("--degree", type=int, default=8)
    c.add_argument("--kernels", default=",".join(CRONO_KERNELS))
    c.add_argument("--json", help="write the results as JSON here")
    c.add_argument("--keep", action="store_true", help="keep the build directory")
    c.add_argument("--commit", help="the checkout's commit, when PATH is not a git work tree")
    c.set_defaults(func=cmd_crono)
    d = sub.add_parser("ascylib", help="count the ASCYLIB structures of a checkout")
    d.add_argument("path", help="a checkout of github.com/LPD-EPFL/ASCYLIB")
    d.add_argument("--structures", default=",".join(ASCYLIB_STRUCTURES))
    d.add_argument("--json", help="write the results as JSON here")
    d.add_argument("--keep", action="store_true", help="keep the build directory")
    d.add_argument("--commit", help="the checkout's commit, when PATH is not a git work tree")
    d.set_defaults(func=cmd_ascylib)
    p = sub.add_parser("parse-callgrind",
                       help="parse callgrind_annotate --inclusive=yes output")
    p.add_argument("file")
    p.set_defaults(func=cmd_parse)
    a = ap.parse_args()
    for tool in ("g++", "gcov", "valgrind", "callgrind_annotate"):
        if a.cmd in ("crono", "ascylib") and shutil.which(tool) is None:
            sys.exit(f"cited-code-counts: {tool} not found (Debian: g++, valgrind)")
    a.func(a)


if __name__ == "__main__":
    main()
