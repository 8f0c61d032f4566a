"""The Python binding against the library just built (testsuite/dsl.at).

Usage: python3 binding.py DIR_OF_PTXEMIT_PY MIR_FILE
Prints what it checked, one line each; dsl.at compares the lines."""
import sys

sys.path.insert(0, sys.argv[1])
import ptxemit  # noqa: E402

mir = open(sys.argv[2], encoding="utf-8").read()

ptx = ptxemit.translate(mir)
print("translate:", [l for l in ptx.splitlines() if l.startswith((".target", ".visible"))])

ptx = ptxemit.translate(mir.encode("utf-8"), target="sm_90a")
print("bytes, target:", [l for l in ptx.splitlines() if l.startswith(".target")])

ptx = ptxemit.translate(mir, lineinfo=True)
print("lineinfo:", [l.strip() for l in ptx.splitlines() if l.strip().startswith((".file", ".loc"))][:3])

bad = "target sm_80\n\nkernel @k() {\n  %a:u32 = ad 1, 2\n  ret\n}\n"
try:
    ptxemit.translate(bad)
    print("no exception")
except ptxemit.PtxemitError as e:
    print("diagnostics:", e.diagnostics)
    print("str:", str(e))

try:
    ptxemit.translate(mir, target="sm80")
    print("no exception")
except ptxemit.PtxemitError as e:
    print("target:", [d["message"] for d in e.diagnostics])

dup = "target sm_80\n\nkernel @k() {\n^top:\n  ret\n^top:\n  ret\n}\n"
try:
    ptxemit.translate(dup, filename="dup.mir")
    print("no exception")
except ptxemit.PtxemitError as e:
    print("notes:", e.diagnostics[0]["notes"])
