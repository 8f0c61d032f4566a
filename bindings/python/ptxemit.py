"""ptxemit for Python: translate MIR into PTX in-process through libptxemit.

Only ctypes is used. The library is looked for in $PTXEMIT_LIBRARY (a path),
then by the system's rules for ``libptxemit.so.0`` (ldconfig, LD_LIBRARY_PATH).

    >>> import ptxemit
    >>> ptx = ptxemit.translate(open("vadd.mir").read(), target="sm_90")

A module that does not translate raises PtxemitError; its ``diagnostics`` are
the library's diagnostics as dictionaries with the keys of ptxemit(1)'s JSON
format: file, line, column, severity, message, notes (and option for a
warning). A module that translates with warnings returns its PTX and issues
each warning as a PtxemitWarning through Python's warnings module (its
``diagnostic`` is the dictionary); ``warning_options`` takes ptxemit(1)'s
-W options, spelled as GCC spells them:

    >>> ptx = ptxemit.translate(text, warning_options=["-Werror=maybe-uninitialized"])
"""
import ctypes
import ctypes.util
import os
import warnings

__all__ = ["translate", "PtxemitError", "PtxemitWarning"]

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
        ("no_warnings", ctypes.c_bool),
        ("warnings_are_errors", ctypes.c_bool),
        ("warn_off", ctypes.c_uint64),
        ("warn_error", ctypes.c_uint64),
        ("warn_not_error", ctypes.c_uint64),
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
        ("option", ctypes.c_char_p),
    ]


_DiagFn = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.POINTER(_Diagnostic))


class PtxemitError(Exception):
    """A module that did not translate. ``diagnostics`` holds every
    diagnostic; str() gives them as ptxemit(1) prints the first lines."""

    def __init__(self, diagnostics):
        self.diagnostics = diagnostics
        lines = [_first_line(d) for d in diagnostics]
        super().__init__("\n".join(lines) or "translation failed")


class PtxemitWarning(UserWarning):
    """A warning of a module that translated. ``diagnostic`` is its
    dictionary (with its notes); str() gives it as ptxemit(1) prints its
    first line."""

    def __init__(self, diagnostic):
        self.diagnostic = diagnostic
        super().__init__(_first_line(diagnostic))


def _first_line(d):
    place = d["file"]
    if d["line"]:
        place += ":%d:%d" % (d["line"], d["column"])
    text = "%s: %s: %s" % (place, d["severity"], d["message"])
    if d.get("option"):
        text += " [%s]" % d["option"]
    return text


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
    lib.px_options_warning.argtypes = [ctypes.POINTER(_Options), ctypes.c_char_p]
    lib.px_options_warning.restype = ctypes.c_int
    libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
    libc.free.argtypes = [ctypes.c_void_p]
    libc.free.restype = None
    return lib, libc


_lib = None


def translate(text, target=None, lineinfo=False, filename="<string>", warning_options=()):
    """Translate the MIR module ``text`` (str or bytes) and return its PTX.

    ``target`` ("sm_90a") overrides the module's target line; ``lineinfo``
    adds .file/.loc lines naming the MIR lines (and loc statements' places);
    ``warning_options`` are -W options ("-Wno-NAME", "-Werror", "-w", ...).
    Raises PtxemitError with the diagnostics when the module has errors (or
    ValueError for an option that names no warning); issues a
    PtxemitWarning for each warning of a module that translates."""
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
    for flag in warning_options:
        if lib.px_options_warning(ctypes.byref(opt), flag.encode("utf-8")) != 0:
            raise ValueError("unknown warning option '%s'" % flag)

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
        if d.option:
            record["option"] = d.option.decode("utf-8", "replace")
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
    for record in diags:
        if record["severity"] == "warning":
            warnings.warn(PtxemitWarning(record), stacklevel=2)
    try:
        return ctypes.string_at(out, outlen.value).decode("utf-8")
    finally:
        libc.free(out)
