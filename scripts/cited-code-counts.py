#!/usr/bin/env python3
"""Dynamic instruction and lock counts of the code the paper cites, and of
our own server loop of Central and Hier.

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
allocator's calls; the share of the other instructions (neither loads nor
stores) executed inside critical sections from the TAS build run again with
a callgrind dump after every lock call and before every unlock call.

Server loop (`server`): the server of Central and Hier as the paper
describes it (§5), written in C for this project
(scripts/cited-code/server-loop.c), fed the Figure 10 microbenchmarks'
messages by our driver (scripts/cited-code/server-driver.c); `gcc -O2 -g`,
`valgrind --tool=callgrind --cache-sim=yes --toggle-collect=server_step`,
the cost per message kind from the call arcs serve_op_N -> server_step.
Needs no checkout; `--check FILE` compares with the table documented in FILE
(docs/schemes.md, "The server loop, measured").

Usage:
  scripts/cited-code-counts.py server [--ops N] [--seed S] [--json OUT] [--check DOC]
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

# Operations per phase of the critical-section split (a callgrind part per lock
# and unlock call): the lock-coupling list takes ~10,000 locks per operation.
SPLIT_OPS = {"linked_list": 2}

LOCK_FUNCTIONS = re.compile(r"^tas_(lock|trylock)(\.|$)")  # GCC clones: tas_lock.isra.0
UNLOCK_FUNCTIONS = re.compile(r"^tas_unlock(\.|$)")
ALLOC_FUNCTIONS = re.compile(r"^(ssmem_alloc|ssmem_free|ssalloc\w*|ssfree\w*)(\.|$)")


def compressed_name(names, spec):
    """A callgrind name, written `(N) name` where it is defined and `(N)` where it is used again
    (name compression); `names` keeps the definitions."""
    m = re.match(r"\((\d+)\)(?:\s+(.*))?$", spec.strip())
    if not m:
        return spec.strip()
    if m.group(2) is not None:
        names[m.group(1)] = m.group(2)
    return names.get(m.group(1), "?")


def totals_of(events, line):
    """{event: n} of a `totals:` or `summary:` line (missing trailing events are 0)."""
    vals = [int(v) for v in line.split(":", 1)[1].split()]
    return dict(zip(events, vals + [0] * (len(events) - len(vals))))


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

    for line in text.splitlines():
        if line.startswith("events:"):
            events = line.split(":", 1)[1].split()
        elif line.startswith(("totals:", "summary:")):
            totals = totals_of(events, line)
        elif line.startswith(("fn=", "cfn=", "cfi=", "cob=", "ob=", "fl=",
                              "fi=", "fe=")):
            key, spec = line.split("=", 1)
            if key in ("fn", "cfn"):
                n = compressed_name(names, spec)
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
        text = f.read()
    parsed = parse_callgrind_out(text)
    parsed["arcs"] = parse_callgrind_arcs(text)["arcs"]
    return parsed, ok


def outermost_cost(arcs, pattern):
    """{Ir, Dr, Dw} of the calls of functions matching `pattern` from
    functions that do not match it: an allocator that calls another
    (ssalloc -> ssalloc_alloc, where -fno-inline keeps both) counts once."""
    out = {"Ir": 0, "Dr": 0, "Dw": 0}
    for (caller, callee), a in arcs.items():
        if pattern.match(callee or "") and not pattern.match(caller or ""):
            for e in out:
                out[e] += a.get(e, 0)
    return out


def critical_section_split(parts):
    """Instructions, loads and stores executed while holding a lock and
    while holding none, from the parts of a callgrind run that dumped after
    every lock (and trylock) call and before every unlock call, in order.
    A part's trigger says what ended it, so the locks held during a part
    are the locks taken before it less those released before it. The
    inclusive cost of the lock, unlock and allocator calls is left out, as
    in the per-operation counts. Returns {"inside": {event: n}, "outside":
    {...}, "parts": n, "locks": n, "unlocks": n}; a run that does not end
    with every lock released is an error (a trylock that failed in the run
    would be counted as held)."""
    held = 0
    acc = {k: {"Ir": 0, "Dr": 0, "Dw": 0} for k in ("inside", "outside")}
    locks = unlocks = 0
    left_out = re.compile("|".join(p.pattern for p in (LOCK_FUNCTIONS, UNLOCK_FUNCTIONS,
                                                        ALLOC_FUNCTIONS)))
    for text in parts:
        m = re.search(r"^desc: Trigger: (.*)$", text, re.M)
        trigger = m.group(1) if m else ""
        p = parse_callgrind_arcs(text)
        side = acc["inside" if held > 0 else "outside"]
        out = outermost_cost(p["arcs"], left_out)
        for e in side:
            side[e] += p["totals"].get(e, 0) - out[e]
        if trigger.startswith("--dump-after="):
            held += 1
            locks += 1
        elif trigger.startswith("--dump-before="):
            held -= 1
            unlocks += 1
            if held < 0:
                raise ValueError("an unlock without a lock held")
    if held != 0:
        raise ValueError(f"the run ends with {held} locks held")
    return {**acc, "parts": len(parts), "locks": locks, "unlocks": unlocks}


def read_parts(out):
    """The parts of a callgrind run with dumps: out.1, out.2, ... then out (the last)."""
    d, base = os.path.split(out)
    numbered = sorted((f for f in os.listdir(d) if re.fullmatch(re.escape(base) + r"\.\d+", f)),
                      key=lambda f: int(f.rsplit(".", 1)[1]))
    texts = []
    for f in numbered + [base]:
        with open(os.path.join(d, f)) as fh:
            texts.append(fh.read())
    return texts


def callgrind_split(exe, phase, initial, ops, work):
    d = os.path.join(work, f"split-{os.path.basename(exe)}-{phase}")
    os.makedirs(d, exist_ok=True)
    out = os.path.join(d, "cg.out")
    run(["valgrind", "--tool=callgrind", "--instr-atstart=no", "--toggle-collect=run_phase",
         "--cache-sim=yes", "--dump-after=tas_lock*", "--dump-after=tas_trylock*",
         "--dump-before=tas_unlock*", "--callgrind-out-file=" + out,
         exe, phase, str(initial), str(ops), "1"], work)
    split = critical_section_split(read_parts(out))
    shutil.rmtree(d)  # one file per lock call
    return split


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
        alloc = outermost_cost(mea["arcs"], ALLOC_FUNCTIONS)
        ir = t["Ir"] - alloc["Ir"]
        dr = t.get("Dr", 0) - alloc["Dr"]
        dw = t.get("Dw", 0) - alloc["Dw"]
        # The share of the other instructions (neither loads nor stores) that
        # run inside critical sections, from the TAS build (where the lock
        # calls are calls), applied to the LOCK=NONE build's count.
        sops = SPLIT_OPS.get(name, ops)
        sp = callgrind_split(counting, ph, initial, sops, work)
        other = {k: sp[k]["Ir"] - sp[k]["Dr"] - sp[k]["Dw"] for k in ("inside", "outside")}
        share = other["inside"] / (other["inside"] + other["outside"]) \
            if other["inside"] + other["outside"] > 0 else 0.0
        rows.append({"phase": ph, "ops": ops, "succeeded": ok,
                     "succeeded_plain_build": ok2,
                     "locks_per_op": locks / ops, "unlocks_per_op": unlocks / ops,
                     "instructions_per_op": ir / ops, "loads_per_op": dr / ops,
                     "stores_per_op": dw / ops,
                     "allocator_instructions_per_op": alloc["Ir"] / ops,
                     "other_per_op": (ir - dr - dw) / ops,
                     "other_inside_share": share,
                     "other_inside_per_op": (ir - dr - dw) / ops * share,
                     "split_build": {"ops": sops,
                                     "other_inside_per_op": other["inside"] / sops,
                                     "other_outside_per_op": other["outside"] / sops}})
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
          "LOCK=NONE build (allocator calls excluded); other = neither load nor "
          "store, in locks = its share inside critical sections (TAS build)")
    print(f"{'structure':20} {'phase':12} {'init':>6} {'ok':>5}/{'ops':<5} "
          f"{'locks/op':>8} {'instr/op':>9} {'ld/op':>7} {'st/op':>6} "
          f"{'other/op':>9} {'in locks':>9}")
    for r in res:
        for p in r["phases"]:
            print(f"{r['structure']:20} {p['phase']:12} {r['initial']:6} "
                  f"{p['succeeded']:5}/{p['ops']:<5} {p['locks_per_op']:8.2f} "
                  f"{p['instructions_per_op']:9.1f} {p['loads_per_op']:7.1f} "
                  f"{p['stores_per_op']:6.1f} {p['other_per_op']:9.1f} "
                  f"{p['other_inside_per_op']:9.1f}")
    finish(a, out, work)


# ---------------------------------------------------------------------------
# Our server loop of Central and Hier (scripts/cited-code/server-loop.c)

OPCODES = [
    "lock_acquire_global", "lock_acquire_local", "lock_acquire_overflow",
    "lock_release_global", "lock_release_local", "lock_release_overflow",
    "lock_grant_global", "lock_grant_local", "lock_grant_overflow",
    "barrier_wait_global", "barrier_wait_local_within_unit",
    "barrier_wait_local_across_units", "barrier_wait_overflow",
    "barrier_depart_global", "barrier_depart_local", "barrier_departure_overflow",
    "sem_wait_global", "sem_wait_local", "sem_wait_overflow", "sem_grant_global",
    "sem_grant_local", "sem_grant_overflow", "sem_post_global", "sem_post_local",
    "sem_post_overflow", "cond_wait_global", "cond_wait_local", "cond_wait_overflow",
    "cond_signal_global", "cond_signal_local", "cond_signal_overflow",
    "cond_broad_global", "cond_broad_local", "cond_broad_overflow",
    "cond_grant_global", "cond_grant_local", "cond_grant_overflow",
    "decrease_indexing_counter", "abort_local", "abort_global", "abort_overflow",
    "cond_registered_global", "cond_registered_overflow",
]
# cond_wait_local also releases the waiter's lock: the simulator charges it
# as two messages (SyncServer::serve), so per message means per charged one
CHARGED_TWICE = {"cond_wait_local"}
SERVER_ROLES = ("central", "hier")
SLOT_ACCESSES = 2  # the table slot's load and store, modelled apart (touch_state)
DOC_MARK = "<!-- server-loop-counts -->"


def parse_callgrind_arcs(text):
    """Raw callgrind.out: per (caller, callee) the calls and their inclusive
    cost. Returns {"events": [...], "totals": {event: n}, "arcs":
    {(caller, callee): {"calls": n, event: n}}}."""
    names = {}
    events = []
    totals = None
    arcs = {}
    caller = callee = None
    pending = None

    for line in text.splitlines():
        if line.startswith("events:"):
            events = line.split(":", 1)[1].split()
        elif line.startswith(("totals:", "summary:")):
            totals = totals_of(events, line)
        elif line.startswith("fn="):
            caller = compressed_name(names, line[3:])
        elif line.startswith("cfn="):
            callee = compressed_name(names, line[4:])
        elif line.startswith("calls="):
            a = arcs.setdefault((caller, callee), {"calls": 0, **{e: 0 for e in events}})
            a["calls"] += int(line.split("=", 1)[1].split()[0])
            pending = a
        elif pending is not None and line and (line[0].isdigit() or line[0] in "+-*"):
            for e, v in zip(events, line.split()[1:]):
                pending[e] += int(v)
            pending = None
    if totals is None:
        raise ValueError("no totals line: not a callgrind output file")
    return {"events": events, "totals": totals, "arcs": arcs}


def server_rows(parsed, handled):
    """Per message kind the cost of server_step, from the arcs of the
    driver's wrappers serve_op_N; checked against the driver's own tally and
    the run's totals."""
    rows = []
    total = {"messages": 0, "charged": 0, "Ir": 0, "Dr": 0, "Dw": 0}
    for (caller, callee), a in sorted(parsed["arcs"].items(),
                                      key=lambda kv: str(kv[0])):
        m = re.fullmatch(r"serve_op_(\d+)", caller or "")
        if not m or callee != "server_step":
            continue
        op = int(m.group(1))
        name = OPCODES[op]
        if handled.get(op) != a["calls"]:
            raise ValueError(f"{name}: {a['calls']} calls, the driver served {handled.get(op)}")
        charged = a["calls"] * (2 if name in CHARGED_TWICE else 1)
        rows.append({"opcode": op, "message": name, "messages": a["calls"],
                     "charged": charged, "Ir": a["Ir"], "Dr": a.get("Dr", 0),
                     "Dw": a.get("Dw", 0)})
        for k in ("Ir", "Dr", "Dw"):
            total[k] += rows[-1][k]
        total["messages"] += a["calls"]
        total["charged"] += charged
    if sum(handled.values()) != total["messages"]:
        raise ValueError("some served messages have no call arc")
    if total["Ir"] != parsed["totals"]["Ir"]:
        raise ValueError(f"arcs sum to {total['Ir']} instructions, the run collected "
                         f"{parsed['totals']['Ir']}")
    rows.sort(key=lambda r: r["opcode"])
    for r in rows + [total]:
        n = r["messages"]
        r["per_message"] = {"instructions": r["Ir"] / n, "loads": r["Dr"] / n,
                            "stores": r["Dw"] / n,
                            "other_instructions": (r["Ir"] - r["Dr"] - r["Dw"]) / n}
    c = total["charged"]
    total["per_charged_message"] = {
        "instructions": total["Ir"] / c, "loads": total["Dr"] / c,
        "stores": total["Dw"] / c,
        "other_instructions": (total["Ir"] - total["Dr"] - total["Dw"]) / c,
        # what server.instructions_per_request stands for: every instruction
        # but the slot's load and store, which the simulator models apart
        "instructions_besides_slot_accesses": total["Ir"] / c - SLOT_ACCESSES}
    return rows, total


def measure_server(ops, seed, work):
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cited-code")
    run(["gcc", "-O2", "-g", "-c", os.path.join(here, "server-loop.c"),
         "-o", "server-loop.o"], work)
    # the driver's wrappers stay distinct functions that call server_step
    run(["gcc", "-O2", "-g", "-fno-ipa-icf", "-fno-optimize-sibling-calls", "-c",
         os.path.join(here, "server-driver.c"), "-o", "server-driver.o"], work)
    run(["gcc", "server-loop.o", "server-driver.o", "-o", "server"], work)
    out = {}
    for role in SERVER_ROLES:
        cg = f"callgrind-{role}.out"
        r = run(["valgrind", "--tool=callgrind", "--cache-sim=yes",
                 "--toggle-collect=server_step", "--callgrind-out-file=" + cg,
                 "./server", role, str(ops), str(seed)], work)
        handled = {int(a): int(b) for a, b in
                   re.findall(r"^handled (\d+) (\d+)$", r.stdout, re.M)}
        if not re.search(r"^ok$", r.stdout, re.M):
            raise ValueError(f"{role}: the driver did not finish")
        with open(os.path.join(work, cg)) as f:
            rows, total = server_rows(parse_callgrind_arcs(f.read()), handled)
        out[role] = {"messages": rows, "total": total}
    return out


def server_table(res):
    """The documented table: one row per scheme and message kind."""
    lines = ["| scheme | message | served | instructions | loads | stores | other |",
             "|---|---|---:|---:|---:|---:|---:|"]
    for role in SERVER_ROLES:
        for r in res[role]["messages"] + [res[role]["total"]]:
            p = r["per_message"]
            name = f"`{r['message']}`" if "message" in r else "**all (per message served)**"
            lines.append(f"| {role} | {name} | {r['messages']} | {p['instructions']:.1f} | "
                         f"{p['loads']:.1f} | {p['stores']:.1f} | "
                         f"{p['other_instructions']:.1f} |")
        t = res[role]["total"]["per_charged_message"]
        lines.append(f"| {role} | **per charged message** ({res[role]['total']['charged']}) | | "
                     f"{t['instructions']:.1f} | {t['loads']:.1f} | {t['stores']:.1f} | "
                     f"{t['other_instructions']:.1f} |")
    return lines


def check_doc(path, lines):
    """The table after DOC_MARK in the file, line for line."""
    with open(path) as f:
        doc = f.read().splitlines()
    try:
        i = doc.index(DOC_MARK)
    except ValueError:
        return [f"{path}: no line {DOC_MARK}"]
    got = []
    for l in doc[i + 1:]:
        if not l.startswith("|"):
            if got:
                break
            continue
        got.append(l.strip())
    diffs = []
    for k in range(max(len(got), len(lines))):
        a = got[k] if k < len(got) else "(none)"
        b = lines[k] if k < len(lines) else "(none)"
        if a != b:
            diffs.append(f"documented: {a}\n  measured: {b}")
    return diffs


def cmd_server(a):
    work = tempfile.mkdtemp(prefix="server-counts-")
    res = measure_server(a.ops, a.seed, work)
    cc = run(["gcc", "--version"], work).stdout.splitlines()[0]
    vg = run(["valgrind", "--version"], work).stdout.strip()
    out = {"ops": a.ops, "seed": a.seed, "compiler": cc, "valgrind": vg, **res}
    print(f"server loop (scripts/cited-code/server-loop.c); {cc}; {vg}; "
          f"Figure 10 mix, 60 clients, {a.ops} operations each, seed {a.seed}")
    lines = server_table(res)
    print("\n".join(lines))
    for role in SERVER_ROLES:
        v = res[role]["total"]["per_charged_message"]["instructions_besides_slot_accesses"]
        print(f"{role}: instructions per charged message besides the slot's load and store: {v:.1f}")
    ir = sum(res[r]["total"]["Ir"] for r in SERVER_ROLES)
    charged = sum(res[r]["total"]["charged"] for r in SERVER_ROLES)
    out["both"] = {"Ir": ir, "charged": charged,
                   "instructions_besides_slot_accesses": ir / charged - SLOT_ACCESSES}
    print(f"both: instructions per charged message besides the slot's load and store: "
          f"{ir / charged - SLOT_ACCESSES:.1f} ({ir} instructions, {charged} charged messages)")
    finish(a, out, work)
    if a.check:
        diffs = check_doc(a.check, lines)
        if diffs:
            print(f"\nthe counts differ from {a.check} (measured with {cc}, {vg}):")
            print("\n".join(diffs))
            sys.exit(1)
        print(f"\nthe counts are those documented in {a.check}")


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
    s = sub.add_parser("server", help="count our server loop of Central and Hier")
    s.add_argument("--ops", type=int, default=10,
                   help="operations per client and microbenchmark")
    s.add_argument("--seed", type=int, default=1, help="seed of the interleaving")
    s.add_argument("--json", help="write the results as JSON here")
    s.add_argument("--keep", action="store_true", help="keep the build directory")
    s.add_argument("--check", metavar="DOC",
                   help="fail unless the table after the line "
                        f"'{DOC_MARK}' in DOC is the one measured")
    s.set_defaults(func=cmd_server)
    p = sub.add_parser("parse-callgrind",
                       help="parse callgrind_annotate --inclusive=yes output")
    p.add_argument("file")
    p.set_defaults(func=cmd_parse)
    a = ap.parse_args()
    for tool in ("g++", "gcov", "valgrind", "callgrind_annotate"):
        if a.cmd in ("crono", "ascylib") and shutil.which(tool) is None:
            sys.exit(f"cited-code-counts: {tool} not found (Debian: g++, valgrind)")
    if a.cmd == "server":
        absent = [t for t in ("gcc", "valgrind") if shutil.which(t) is None]
        if absent:  # 77: ctest's SKIP_RETURN_CODE for the test cited_code_server
            print(f"cited-code-counts: {', '.join(absent)} not found (Debian: gcc, valgrind): "
                  "the server loop cannot be counted", file=sys.stderr)
            sys.exit(77)
    a.func(a)


if __name__ == "__main__":
    main()
