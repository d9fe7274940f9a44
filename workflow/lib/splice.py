"""Replaces the generated figure sections of a Markdown file, leaving the
hand-written text around them as it is.

A section is everything between `<!-- figure NAME begin -->` and
`<!-- figure NAME end -->`. A figure without its markers is added before
`<!-- figures end -->` (which must exist), in name order among the new ones.
"""
import re

END_ALL = "<!-- figures end -->"


def begin(name):
    return f"<!-- figure {name} begin -->"


def end(name):
    return f"<!-- figure {name} end -->"


def splice_text(text, sections):
    for name, body in sections.items():
        block = f"{begin(name)}\n{body.strip()}\n{end(name)}"
        pattern = re.compile(re.escape(begin(name)) + r".*?" + re.escape(end(name)), re.S)
        if pattern.search(text):
            text = pattern.sub(lambda _: block, text, count=1)
        elif END_ALL in text:
            text = text.replace(END_ALL, f"{block}\n\n{END_ALL}", 1)
        else:
            raise ValueError(f"no '{begin(name)}' section and no '{END_ALL}' marker to add it before")
    return text


def splice(path, sections):
    with open(path) as f:
        text = f.read()
    new = splice_text(text, sections)
    if new != text:
        with open(path, "w") as f:
            f.write(new)
