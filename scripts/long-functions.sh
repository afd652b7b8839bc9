#!/usr/bin/env bash
# Lists the Swift functions, initialisers, computed properties and accessors in Sources/ longer than a screen
# (default 60 lines; `scripts/long-functions.sh 80` for another limit), longest first:
#   <lines>  <file>:<line>  <declaration>
# A function whose doc comment has a line "Longer than a screen: <why>" is marked "(says why)".
# By counting braces from each `func`/`init`/`deinit`/`subscript` declaration (strings and comments are
# skipped roughly: good enough to find the long ones, not a parser).
set -euo pipefail
cd "$(dirname "$0")/.."
limit="${1:-60}"
prog=$(cat <<'PY'
import re, sys
limit = int(sys.argv[1])
decl = re.compile(r'^\s*(?:@[\w()".:, ]+\s+)*(?:(?:public|package|internal|private|fileprivate|static|final|override|mutating|nonmutating|convenience|required|nonisolated|@inlinable|@inline\(__always\)|@discardableResult)\s+)*(func\s+[^\s(<]+|init[?!]?\s*[(<]|deinit\b|subscript\s*[(<])')
# A computed property or accessor block: `var name: Type {` (no `=` before the brace: not a stored property).
computed = re.compile(r'^\s*(?:@[\w()".:, ]+\s+)*(?:(?:public|package|internal|private|fileprivate|static|final|override|nonisolated|@inlinable|@inline\(__always\))\s+)*(var\s+[^\s:]+)\s*:[^={]*\{')
found = []
for path in sys.argv[2:]:
    lines = open(path, encoding='utf-8', errors='replace').read().split('\n')
    stack = []          # (start line, depth at which the body opened, declaration)
    pending = None      # a declaration whose body has not opened yet
    depth = 0
    in_block = False
    for i, raw in enumerate(lines):
        line = raw
        # strip block comments, line comments and string literals (roughly)
        out, j = [], 0
        while j < len(line):
            if in_block:
                k = line.find('*/', j)
                if k < 0: j = len(line); break
                in_block = False; j = k + 2; continue
            if line.startswith('/*', j): in_block = True; j += 2; continue
            if line.startswith('//', j): break
            if line[j] == '"':
                k = j + 1
                while k < len(line) and line[k] != '"':
                    k += 2 if line[k] == '\\' else 1
                j = k + 1; continue
            out.append(line[j]); j += 1
        code = ''.join(out)
        m = decl.match(code) or computed.match(code)
        if m and pending is None:
            above = lines[max(0, i - 8):i]
            says = any('Longer than a screen' in a for a in above)
            pending = (i + 1, m.group(1).strip() + ('  (says why)' if says else ''))
        for ch in code:
            if ch == '{':
                depth += 1
                if pending is not None:
                    stack.append((pending[0], depth, pending[1])); pending = None
            elif ch == '}':
                if stack and stack[-1][1] == depth:
                    start, _, name = stack.pop()
                    n = i + 1 - start + 1
                    if n > limit: found.append((n, f'{path}:{start}', name))
                depth -= 1
for n, where, name in sorted(found, reverse=True):
    print(f'{n:5d}  {where}  {name}')
PY
)
find Sources -name '*.swift' -print0 | sort -z | xargs -0 python3 -c "$prog" "$limit"
