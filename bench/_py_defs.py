"""Print, as JSON, every function and class Python's own `ast` finds outside
function bodies, with its qualified name and its full signature text (the
source lines from the `def`/`class` keyword to the line before the body,
trailing comment-only lines dropped). Files `ast` cannot parse are skipped.

Usage: python3 bench/_py_defs.py FILE...
"""
import ast
import json
import sys


def defs(tree, lines):
    out = []

    def visit(body, scope):
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                first = node.body[0]
                start = min([first.lineno] + [d.lineno for d in getattr(first, "decorator_list", [])])
                if start > node.lineno:
                    sig = lines[node.lineno - 1:start - 1]
                    while sig and (not sig[-1].strip() or sig[-1].strip().startswith("#")):
                        sig.pop()
                else:
                    sig = [lines[node.lineno - 1][:first.col_offset].rstrip()]
                qual = scope + [node.name]
                out.append({"name": ".".join(qual), "line": node.lineno, "sig": "\n".join(sig)})
                if isinstance(node, ast.ClassDef):
                    visit(node.body, qual)
            else:
                # Definitions under if/try/with/for/while at module or class level.
                for field in ("body", "orelse", "finalbody", "handlers"):
                    inner = getattr(node, field, None)
                    if isinstance(inner, list):
                        visit([n for n in inner if isinstance(n, ast.AST)], scope)
                if isinstance(node, ast.ExceptHandler):
                    pass

    visit(tree.body, [])
    return out


result = {}
for path in sys.argv[1:]:
    try:
        with open(path, encoding="utf-8") as f:
            source = f.read()
        tree = ast.parse(source)
    except (SyntaxError, UnicodeDecodeError, ValueError):
        continue
    result[path] = defs(tree, source.replace("\r\n", "\n").split("\n"))
json.dump(result, sys.stdout)
