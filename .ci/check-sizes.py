#!/usr/bin/env python3
"""No class over 400 lines and no method over 80 in scheduling-core, scheduling-sac, the CLI and every service (issue 14).

The other modules are checked too but only reported (notes).

A class is a .java file (nested classes count towards it); a method runs from the first line of its declaration to
its closing brace. The few files still over a limit are listed in ALLOWED with the size they may not grow beyond and
why; a listed file that shrinks under the limit must be taken off the list (so the list only ever gets shorter).
Usage: .ci/check-sizes.py [ROOT]   (exit 1 on any breach)
"""
import pathlib
import re
import sys

MAX_CLASS_LINES = 400
MAX_METHOD_LINES = 80
ROOTS = ["scheduling-core/src/main/java", "scheduling-sac/src/main/java", "sac-trainer/src/main/java", "services"]
# Reported, not enforced yet (issue 14 names the services and the core): the new training modules' breaches are
# printed as notes so they stay in view.
REPORTED = ["shared-events/src/main/java", "training-model/src/main/java", "job-runner/src/main/java",
            "embedded-kafka/src/main/java"]
# path -> (lines it may have at most, why it is still over)
ALLOWED = {}
ALLOWED_METHODS = {}

DECL = re.compile(r"^( +)(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|protected|private|static|final|synchronized|abstract"
                  r"|default|native)\s+)*(?:<[^>]+>\s+)?(?:[\w\[\]?.][\w<>\[\], ?.]*\s+(\w+)|([A-Z]\w*))\s*\(")
NOT_METHOD = {"if", "for", "while", "switch", "catch", "return", "new", "else", "throw", "try", "do", "case"}


def methods(lines):
    """(name, first line, length) of every method or constructor body."""
    out = []
    i = 0
    while i < len(lines):
        m = DECL.match(lines[i])
        name = m and (m.group(2) or m.group(3))
        if m and name not in NOT_METHOD and lines[i].strip().split(" ")[0] not in NOT_METHOD \
                and "=" not in lines[i].split("(")[0]:
            indent = m.group(1)
            j = i
            while j < len(lines) and not lines[j].rstrip().endswith("{") and not lines[j].rstrip().endswith(";"):
                j += 1
            if j < len(lines) and lines[j].rstrip().endswith("{"):
                k = j + 1
                while k < len(lines) and lines[k].rstrip() != indent + "}":
                    k += 1
                out.append((name, i + 1, k - i + 1))
                i = j + 1
                continue
        i += 1
    return out


def breaches(root, rel, lines):
    out = []
    limit, why = ALLOWED.get(rel, (MAX_CLASS_LINES, None))
    if len(lines) > limit:
        out.append("%s: %d lines (limit %d)" % (rel, len(lines), limit))
    elif why and len(lines) <= MAX_CLASS_LINES:
        out.append("%s: %d lines, under %d now: take it off ALLOWED" % (rel, len(lines), MAX_CLASS_LINES))
    for name, start, length in methods(lines):
        mlimit = ALLOWED_METHODS.get(rel + "#" + name, MAX_METHOD_LINES)
        if length > mlimit:
            out.append("%s:%d: method %s is %d lines (limit %d)" % (rel, start, name, length, mlimit))
    return out


def files(root, roots):
    for r in roots:
        for f in sorted((root / r).rglob("*.java")):
            rel = f.relative_to(root).as_posix()
            if "/src/main/java/" in rel:
                yield rel, f.read_text(encoding="utf-8").splitlines()


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    problems = []
    enforced = set()
    for rel, lines in files(root, ROOTS):
        enforced.add(rel)
        problems.extend(breaches(root, rel, lines))
    notes = [b for rel, lines in files(root, REPORTED) if rel not in enforced for b in breaches(root, rel, lines)]
    for p in problems:
        print(p)
    for n in notes:
        print("note (not enforced yet): " + n)
    print("%d files checked, %d over a limit (classes <= %d lines, methods <= %d; %d files allowed over: see ALLOWED)"
          % (len(enforced), len(problems), MAX_CLASS_LINES, MAX_METHOD_LINES, len(ALLOWED)))
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
