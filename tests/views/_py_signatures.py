"""Print, as JSON, the signature of every function and class Python's own
`ast` finds outside function bodies: the source from the `def`/`class`
keyword to the body, without comments (found by `tokenize`), whitespace
collapsed and the final colon dropped, with its qualified name, line and
decorators' source, and how many comments the file's signatures held.

Usage: python3 tests/views/_py_signatures.py FILE...
"""
import ast
import io
import json
import re
import sys
import tokenize


def offsets(source):
    starts = [0]
    for line in source.split("\n"):
        starts.append(starts[-1] + len(line) + 1)
    return lambda line, col: starts[line - 1] + col


def signatures(source):
    tree = ast.parse(source)
    at = offsets(source)
    # `tokenize` columns are characters, as `ast` columns are UTF-8 bytes: convert those.
    lines = source.split("\n")
    char_col = lambda line, col: len(lines[line - 1].encode("utf-8")[:col].decode("utf-8"))
    comments = [
        (at(*t.start), at(*t.end))
        for t in tokenize.generate_tokens(io.StringIO(source).readline)
        if t.type == tokenize.COMMENT
    ]
    out = []
    stripped = 0

    def visit(body, scope):
        nonlocal stripped
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                first = node.body[0]
                line, col = first.lineno, first.col_offset
                for d in getattr(first, "decorator_list", []):
                    if (d.lineno, d.col_offset) < (line, col):
                        line, col = d.lineno, d.col_offset - 1
                start = at(node.lineno, char_col(node.lineno, node.col_offset))
                end = at(line, char_col(line, col))
                text, cursor = "", start
                for a, b in comments:
                    if a >= start and b <= end:
                        text += source[cursor:a] + " "
                        cursor = b
                        stripped += 1
                text += source[cursor:end]
                sig = re.sub(r"\s+", " ", text).strip()
                sig = re.sub(r"\s*:$", "", sig)
                qual = scope + [node.name]
                decorators = [
                    "@" + re.sub(r"\s+", " ", ast.get_source_segment(source, d))
                    for d in node.decorator_list
                ]
                out.append(
                    {
                        "name": ".".join(qual),
                        "line": node.lineno,
                        "sig": sig,
                        "decorators": decorators,
                    }
                )
                if isinstance(node, ast.ClassDef):
                    visit(node.body, qual)
            else:
                for field in ("body", "orelse", "finalbody", "handlers"):
                    inner = getattr(node, field, None)
                    if isinstance(inner, list):
                        visit([n for n in inner if isinstance(n, ast.AST)], scope)

    visit(tree.body, [])
    return {"defs": out, "comments": stripped}


result = {}
for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as f:
        source = f.read().replace("\r\n", "\n")
    result[path] = signatures(source)
json.dump(result, sys.stdout)
