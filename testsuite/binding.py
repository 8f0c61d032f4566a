"""The Python binding against the library just built (testsuite/dsl.at).

Usage: python3 binding.py DIR_OF_PTXEMIT_PY MIR_FILE [LOC_MIR [PTXAS SPILL_MIR]]
Prints what it checked, one line each; dsl.at compares the lines. DIR may
be "-": the module is imported from Python's own path (an installed copy).
With PTXAS, it also assembles SPILL_MIR (a kernel ptxas spills)."""
import sys

if sys.argv[1] != "-":
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

# a module that translates with a warning: the PTX, and the warning through
# Python's warnings module; -W options as GCC spells them
import warnings  # noqa: E402

maybe = ("target sm_80\n\nkernel @k(%o: ptr global, %c: u32) {\n  %p:pred = setp.eq %c, 0\n"
         "  @%p bra ^skip\n  %v:u32 = add %c, 1\n^skip:\n  st.global.u32 [%o], %v\n  ret\n}\n")
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    ptx = ptxemit.translate(maybe, filename="maybe.mir")
print("warning, ptx:", [l for l in ptx.splitlines() if l.startswith(".visible")])
for w in caught:
    print("warning:", w.category.__name__, str(w.message))
    print("warning diagnostic:", w.message.diagnostic)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    ptxemit.translate(maybe, warning_options=["-Wno-maybe-uninitialized"])
print("-Wno-maybe-uninitialized:", len(caught))
# under a loc statement the warning leads with the generator's place
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    ptxemit.translate(maybe.replace("  @%p bra", '  loc "gen.py" 17:5\n  @%p bra').replace(
        "  st.global.u32", '  loc "gen.py" 21\n  st.global.u32'), filename="maybe.mir")
for w in caught:
    print("warning, dsl:", str(w.message))
try:
    ptxemit.translate(maybe, filename="maybe.mir", warning_options=["-Werror"])
    print("no exception")
except ptxemit.PtxemitError as e:
    print("-Werror:", [(d["severity"], d["option"]) for d in e.diagnostics])
try:
    ptxemit.translate(maybe, warning_options=["-Wmaybe-unitialized"])
    print("no exception")
except ValueError as e:
    print("ValueError:", e)
# assume_grid: the race between CTAs is there for a grid of two, not of one
shift = ("target sm_80\nkernel @shift(%a: ptr global) reqntid(128) {\n"
         "  %i:u32 = mad.lo %ctaid.x, %ntid.x, %tid.x\n  %n:u32 = add %i, 1\n"
         "  %no:b64 = mul.wide %n, 4\n  %src:u64 = add %a, %no\n  %v:f32 = ld.global [%src]\n"
         "  bar.sync 0\n  %io:b64 = mul.wide %i, 4\n  %dst:u64 = add %a, %io\n"
         "  st.global [%dst], %v\n  ret\n}\n")
for grid in (None, 2, (1, 1)):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ptxemit.translate(shift, assume_grid=grid, warning_options=["-Wglobal-race"])
    print("assume_grid", grid, [w.message.diagnostic["option"] for w in caught])
try:
    ptxemit.translate(shift, assume_grid=(1, 0))
    print("no exception")
except ValueError as e:
    print("ValueError:", e)

# every option of the library, and what a successful translation said
loc = open(sys.argv[3], encoding="utf-8").read() if len(sys.argv) > 3 else None
ptx = ptxemit.translate(mir, target="sm_90", ptx="8.4", jobs=2, max_errors=5, debug=True)
print("ptx, jobs, debug:", [l for l in ptx.splitlines() if l.startswith((".version", ".target"))],
      type(ptx).__name__, ptx.diagnostics)
print("verify_only:", repr(str(ptxemit.translate(mir, verify_only=True))))
remarks = ptxemit.translate("target sm_80\n\nkernel @k(%p: ptr global) {\n  %a:f32 = ld.global [%p]\n"
                            "  %m:f32 = mul %a, %a\n  %s:f32 = add %m, 1.0\n  st.global [%p], %s\n  ret\n}\n",
                            remarks=True)
print("remarks:", [d["message"] for d in remarks.remarks], len(remarks.diagnostics))
try:
    ptxemit.translate(loc, driver=535)
except ptxemit.PtxemitError as e:
    print("driver, dsl:", e.diagnostics[0]["message"], e.diagnostics[0]["dsl"])
try:
    ptxemit.translate(loc, max_ptx="8.2", filename="k.mir")
except ptxemit.PtxemitError as e:
    print("max_ptx:", e.diagnostics[0]["message"])
if len(sys.argv) > 5:
    ptxas, spill = sys.argv[4], open(sys.argv[5], encoding="utf-8").read()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        cubin = ptxemit.translate(spill, cubin=True, resource_usage=True, ptxas=ptxas, opt_level=3,
                                  ptxas_options=["--warn-on-spills", "-maxrregcount=24"], cache_dir="pycache",
                                  cache_max=1 << 20)
    print("cubin:", type(cubin).__name__, bytes(cubin[:4]), cubin.resource_usage)
    print("warnings:", [(d["message"], d["line"], d["dsl"]) for d in cubin.warnings])
    print("issued:", [w.message.diagnostic["message"] for w in caught] == [d["message"] for d in cubin.warnings])
    try:
        ptxemit.translate(spill, cubin=True, ptxas="/nonexistent/ptxas")
    except ptxemit.PtxemitError as e:
        print("no ptxas:", [d["message"] for d in e.diagnostics])
    # a target the ptxas makes no code for: the one error ptxemit(1) prints
    for what in ({"cubin": True}, {"resource_usage": True}):
        try:
            ptxemit.translate(mir, target="sm_70", ptxas=ptxas, **what)
        except ptxemit.PtxemitError as e:
            print("sm_70:", list(what), [d["message"] for d in e.diagnostics])
