#!/usr/bin/env python3
"""Builds the documentation's C, C++ and CMake snippets into a project, so they cannot drift.

Every fenced ```c, ```cpp or ```cmake block of README.md and docs/*.md is
preceded by an HTML comment that says what it is:

    <!-- snippet: NAME -->       compiled: testbenches/doc_snippets/ has a
                                 template with the line "@snippet NAME"
    <!-- snippet: excerpt -->   declarations quoted from a header or an outline
                                 with "...", not a program (not compiled)

A block without one, a NAME no template uses, or a template whose snippet is
missing is an error naming the file and line. In a C++ template, the
snippet's #include and `using namespace` lines go to the line
"// @snippet-head NAME" when the template has one. Markers are comment
lines of their own ("# @snippet", "// @snippet", "/* @snippet"). scripts/test-doc-snippets.sh builds the
project against the installed package (ctest doc_snippets).

    scripts/doc-snippets.py --out DIR      write the project into DIR
    scripts/doc-snippets.py --list         list the snippets and their kinds
"""
import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = ROOT / "testbenches" / "doc_snippets"
LANGS = ("c", "cpp", "cmake")
MARK = re.compile(r"^<!--\s*snippet:\s*([A-Za-z0-9_]+)\s*-->\s*$")


class SnippetError(Exception):
    pass


def snippets(paths):
    """{name: (file:line, text)} of the compiled snippets, and how many excerpts."""
    found, excerpts = {}, 0
    for path in paths:
        lines = path.read_text(encoding="utf-8").splitlines()
        in_block = False
        for i, line in enumerate(lines):
            fence = re.match(r"^```(\S*)\s*$", line)
            if not fence:
                continue
            if in_block:
                in_block = False
                continue
            in_block = True
            lang = fence.group(1)
            if lang not in LANGS:
                continue
            where = f"{path.relative_to(ROOT)}:{i + 1}"
            mark = MARK.match(lines[i - 1]) if i > 0 else None
            if not mark:
                raise SnippetError(f"{where}: a ```{lang} block without <!-- snippet: NAME --> "
                                   "or <!-- snippet: excerpt --> on the line before it")
            name = mark.group(1)
            end = next((j for j in range(i + 1, len(lines)) if lines[j].startswith("```")), None)
            if end is None:
                raise SnippetError(f"{where}: the block is never closed")
            if name == "excerpt":
                excerpts += 1
                continue
            if name in found:
                raise SnippetError(f"{where}: snippet {name!r} already at {found[name][0]}")
            found[name] = (where, "\n".join(lines[i + 1:end]) + "\n")
    return found, excerpts


def fill(template_text, used, found, where):
    """The template with each @snippet line replaced by its snippet."""
    heads = set(re.findall(r"(?m)^\s*(?:#|//|/\*)\s*@snippet-head\s+(\w+)", template_text))
    out = []
    for line in template_text.splitlines(keepends=True):
        head = re.match(r"\s*(?:#|//|/\*)\s*@snippet-head\s+(\w+)", line)
        body = re.match(r"\s*(?:#|//|/\*)\s*@snippet\s+(\w+)", line)
        match = head or body
        if not match:
            out.append(line)
            continue
        name = match.group(1)
        if name not in found:
            raise SnippetError(f"{where}: uses snippet {name!r}, which no document marks")
        where_from, text = found[name]
        lines = text.splitlines(keepends=True)
        is_top = [bool(re.match(r"\s*(#include|using namespace)\b", l)) for l in lines]
        if head:
            chosen = [l for l, t in zip(lines, is_top) if t]
        elif name in heads:
            chosen = [l for l, t in zip(lines, is_top) if not t]
        else:
            chosen = lines
        indent = "" if head else re.match(r"\s*", line).group(0)
        if where.endswith(".in"):
            out.append(f"{indent}# from {where_from}\n")
        elif where.endswith(".c"):
            out.append(f"{indent}/* from {where_from} */\n")
        else:
            out.append(f"{indent}// from {where_from}\n")
        out.extend(indent + l if l.strip() else l for l in chosen)
        used.add(name)
    return "".join(out)


def write_project(out_dir, found):
    out_dir.mkdir(parents=True, exist_ok=True)
    used = set()
    for template in sorted(TEMPLATES.iterdir()):
        target = out_dir / (template.name[:-3] if template.name.endswith(".in") else template.name)
        where = str(template.relative_to(ROOT))
        target.write_text(fill(template.read_text(encoding="utf-8"), used, found, where), encoding="utf-8")
    unused = sorted(set(found) - used)
    if unused:
        raise SnippetError("; ".join(f"{found[n][0]}: snippet {n!r} has no template in "
                                     f"{TEMPLATES.relative_to(ROOT)}/" for n in unused))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--out", type=Path, help="write the project into this directory")
    group.add_argument("--list", action="store_true", help="list the snippets")
    args = parser.parse_args()
    docs = [ROOT / "README.md"] + sorted((ROOT / "docs").rglob("*.md"))
    try:
        found, excerpts = snippets(docs)
        if args.list:
            for name, (where, _) in sorted(found.items()):
                print(f"{name:20} {where}")
            print(f"{len(found)} compiled snippets, {excerpts} excerpts")
            return 0
        write_project(args.out, found)
    except SnippetError as e:
        print(f"doc-snippets: {e}", file=sys.stderr)
        return 1
    print(f"doc-snippets: {len(found)} snippets written to {args.out} ({excerpts} excerpts not compiled)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
