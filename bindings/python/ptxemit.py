"""ptxemit for Python: translate MIR into PTX in-process through libptxemit.

Only ctypes is used. The library is looked for in $PTXEMIT_LIBRARY (a path),
then by the system's rules for ``libptxemit.so.0`` (ldconfig, LD_LIBRARY_PATH).

    >>> import ptxemit
    >>> ptx = ptxemit.translate(open("vadd.mir").read(), target="sm_90")

A module that does not translate raises PtxemitError; its ``diagnostics`` are
the library's diagnostics as dictionaries with the keys of ptxemit(1)'s JSON
format: file, line, column, severity, message and notes.
"""
import ctypes
import ctypes.util
import os

__all__ = ["translate", "PtxemitError"]

_SEVERITIES = ("error", "warning", "note", "remark")


class _Options(ctypes.Structure):
    _fields_ = [
        ("target", ctypes.c_char_p),
        ("ptx", ctypes.c_char_p),
        ("emit", ctypes.c_int),
        ("verify_only", ctypes.c_bool),
        ("debug", ctypes.c_bool),
        ("lineinfo", ctypes.c_bool),
        ("remarks", ctypes.c_bool),
        ("max_errors", ctypes.c_uint),
        ("jobs", ctypes.c_uint),
        ("sink", ctypes.c_void_p),
        ("sink_ctx", ctypes.c_void_p),
        ("cubin", ctypes.c_bool),
        ("resource_usage", ctypes.c_bool),
        ("ptxas", ctypes.c_char_p),
        ("cuda_home", ctypes.c_char_p),
        ("opt_level", ctypes.c_int),
        ("ptxas_options", ctypes.c_char_p),
        ("cache_dir", ctypes.c_char_p),
        ("cache_max", ctypes.c_ulonglong),
    ]


class _Diagnostic(ctypes.Structure):
    _fields_ = [
        ("severity", ctypes.c_int),
        ("file", ctypes.c_char_p),
        ("line", ctypes.c_uint),
        ("col", ctypes.c_uint),
        ("message", ctypes.c_char_p),
        ("source_line", ctypes.c_void_p),
        ("source_len", ctypes.c_size_t),
        ("dsl_file", ctypes.c_char_p),
        ("dsl_line", ctypes.c_uint),
        ("dsl_col", ctypes.c_uint),
        ("code", ctypes.c_char_p),
        ("ptx_line", ctypes.c_uint),
        ("usage", ctypes.c_void_p),
    ]


_DiagFn = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.POINTER(_Diagnostic))


class PtxemitError(Exception):
    """A module that did not translate. ``diagnostics`` holds every
    diagnostic; str() gives them as ptxemit(1) prints the first lines."""

    def __init__(self, diagnostics):
        self.diagnostics = diagnostics
        lines = []
        for d in diagnostics:
            place = d["file"]
            if d["line"]:
                place += ":%d:%d" % (d["line"], d["column"])
            lines.append("%s: %s: %s" % (place, d["severity"], d["message"]))
        super().__init__("\n".join(lines) or "translation failed")


def _load():
    path = os.environ.get("PTXEMIT_LIBRARY") or ctypes.util.find_library("ptxemit")
    lib = ctypes.CDLL(path or "libptxemit.so.0")
    lib.px_options_default.argtypes = [ctypes.POINTER(_Options)]
    lib.px_options_default.restype = None
    lib.px_translate.argtypes = [
        ctypes.c_char_p, ctypes.c_char_p, ctypes.c_size_t, ctypes.POINTER(_Options),
        _DiagFn, ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_size_t),
    ]
    lib.px_translate.restype = ctypes.c_int
    libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
    libc.free.argtypes = [ctypes.c_void_p]
    libc.free.restype = None
    return lib, libc


_lib = None


def translate(text, target=None, lineinfo=False, filename="<string>"):
    """Translate the MIR module ``text`` (str or bytes) and return its PTX.

    ``target`` ("sm_90a") overrides the module's target line; ``lineinfo``
    adds .file/.loc lines naming the MIR lines (and loc statements' places).
    Raises PtxemitError with the diagnostics when the module has errors."""
    global _lib
    if _lib is None:
        _lib = _load()
    lib, libc = _lib
    src = text.encode("utf-8") if isinstance(text, str) else bytes(text)
    opt = _Options()
    lib.px_options_default(ctypes.byref(opt))
    if target is not None:
        opt.target = target.encode("utf-8")
    opt.lineinfo = bool(lineinfo)

    diags = []

    def collect(_ctx, p):
        d = p.contents
        text = (d.message or b"").decode("utf-8", "replace")
        record = {
            "file": (d.file or b"").decode("utf-8", "replace"),
            "line": d.line,
            "column": d.col,
            "severity": _SEVERITIES[d.severity] if 0 <= d.severity < 4 else "error",
            "message": text,
            "notes": [],
        }
        if record["severity"] == "note" and diags:
            del record["severity"], record["notes"]
            diags[-1]["notes"].append(record)
        else:
            diags.append(record)

    out = ctypes.c_void_p()
    outlen = ctypes.c_size_t()
    errors = lib.px_translate(filename.encode("utf-8"), src, len(src), ctypes.byref(opt),
                              _DiagFn(collect), None, ctypes.byref(out), ctypes.byref(outlen))
    if errors:
        raise PtxemitError(diags)
    try:
        return ctypes.string_at(out, outlen.value).decode("utf-8")
    finally:
        libc.free(out)
