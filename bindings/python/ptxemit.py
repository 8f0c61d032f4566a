"""ptxemit for Python: translate MIR into PTX (or a cubin) in-process through
libptxemit.

Only ctypes is used. The library is looked for in $PTXEMIT_LIBRARY (a path),
then where ``make install`` put it, then by the system's rules for
``libptxemit.so.0`` (ldconfig, LD_LIBRARY_PATH).

    >>> import ptxemit
    >>> ptx = ptxemit.translate(open("vadd.mir").read(), target="sm_90")
    >>> ptx.warnings, ptx.remarks          # what a successful translation said
    >>> cubin = ptxemit.translate(text, cubin=True, resource_usage=True)
    >>> cubin.resource_usage[0]["registers"]

translate() returns the PTX as a str (a cubin as bytes) that also carries
``diagnostics`` (every diagnostic), ``warnings`` and ``remarks`` (those of
that severity) and ``resource_usage`` (one record per function, with
resource_usage=True). A module that does not translate raises PtxemitError;
its ``diagnostics`` are the same. A diagnostic is a dictionary with the keys
of ptxemit(1)'s JSON format: file, line, column, severity, message, notes,
and where they apply dsl, code, ptx_line and resource_usage.
A module that translates with warnings also issues each warning as a
PtxemitWarning through Python's warnings module (its ``diagnostic`` is the
dictionary, with option, the -W option that controls it); ``warning_options``
takes ptxemit(1)'s -W options, spelled as GCC spells them:

    >>> ptx = ptxemit.translate(text, warning_options=["-Werror=maybe-uninitialized"])
"""
import ctypes
import ctypes.util
import os
import warnings

__all__ = ["translate", "PtxemitError", "PtxemitWarning", "Ptx", "Cubin"]

_SEVERITIES = ("error", "warning", "note", "remark")

# Where `make install` put the library (set by the install rule; None in the
# source tree).
_LIBDIR = None


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
        ("driver", ctypes.c_uint),
        ("max_ptx", ctypes.c_char_p),
        ("cubin", ctypes.c_bool),
        ("resource_usage", ctypes.c_bool),
        ("in_process", ctypes.c_bool),
        ("ptxas", ctypes.c_char_p),
        ("cuda_home", ctypes.c_char_p),
        ("opt_level", ctypes.c_int),
        ("ptxas_options", ctypes.c_char_p),
        ("cache_dir", ctypes.c_char_p),
        ("cache_max", ctypes.c_ulonglong),
        ("no_warnings", ctypes.c_bool),
        ("warnings_are_errors", ctypes.c_bool),
        ("warn_off", ctypes.c_uint64),
        ("warn_error", ctypes.c_uint64),
        ("warn_not_error", ctypes.c_uint64),
        ("assume_grid", ctypes.c_uint * 3),
    ]


class _Usage(ctypes.Structure):
    _fields_ = [
        ("function", ctypes.c_char_p),
        ("kernel", ctypes.c_bool),
        ("registers", ctypes.c_uint),
        ("barriers", ctypes.c_uint),
        ("stack", ctypes.c_uint),
        ("spill_stores", ctypes.c_uint),
        ("spill_loads", ctypes.c_uint),
        ("shared", ctypes.c_uint),
        ("local", ctypes.c_uint),
        ("constant", ctypes.c_uint),
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
        ("usage", ctypes.POINTER(_Usage)),
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


class _Said:
    """What a translation reported besides its output."""

    def _said(self, diagnostics):
        self.diagnostics = diagnostics
        self.warnings = [d for d in diagnostics if d["severity"] == "warning"]
        self.remarks = [d for d in diagnostics if d["severity"] == "remark"]
        self.resource_usage = [d["resource_usage"] for d in diagnostics if "resource_usage" in d]
        return self


class Ptx(str, _Said):
    """The PTX text, with what the translation said."""


class Cubin(bytes, _Said):
    """The cubin, with what the translation and ptxas said."""


class PtxemitWarning(UserWarning):
    """A warning of a module that translated. ``diagnostic`` is its
    dictionary (with its notes); str() gives it as ptxemit(1) prints its
    first line."""

    def __init__(self, diagnostic):
        self.diagnostic = diagnostic
        super().__init__(_first_line(diagnostic))


def _first_line(d):
    # under a loc statement the generator's place leads, as ptxemit(1)
    # prints it; the MIR place stays in the dictionary
    where = d.get("dsl") or d
    place = where["file"]
    if where["line"]:
        place += ":%d" % where["line"]
        if where["column"]:
            place += ":%d" % where["column"]
    text = "%s: %s: %s" % (place, d["severity"], d["message"])
    if d.get("option"):
        text += " [%s]" % d["option"]
    return text


def _load():
    path = os.environ.get("PTXEMIT_LIBRARY")
    if not path and _LIBDIR and os.path.exists(os.path.join(_LIBDIR, "libptxemit.so.0")):
        path = os.path.join(_LIBDIR, "libptxemit.so.0")
    path = path or ctypes.util.find_library("ptxemit")
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


def _text(b):
    return (b or b"").decode("utf-8", "replace")


def _bytes(s):
    return None if s is None else s.encode("utf-8")


def translate(text, target=None, ptx=None, lineinfo=False, debug=False, remarks=False, jobs=None,
              max_errors=None, verify_only=False, driver=None, max_ptx=None, cubin=False,
              resource_usage=False, in_process=False, ptxas=None, cuda_home=None, opt_level=None, ptxas_options=None,
              cache_dir=None, cache_max=None, assume_grid=None, filename="<string>", warning_options=()):
    """Translate the MIR module ``text`` (str or bytes).

    Returns the PTX (a Ptx, which is a str), or with ``cubin=True`` the
    cubin ptxas makes of it (a Cubin, which is bytes); either carries
    diagnostics, warnings, remarks and resource_usage. The options are
    px_options' (ptxemit(3)): ``target`` ("sm_90a"), ``ptx`` ("8.0"),
    ``lineinfo``, ``debug``, ``remarks``, ``jobs``, ``max_errors``,
    ``verify_only``, ``driver`` (535), ``max_ptx`` ("8.2"), ``cubin``,
    ``resource_usage``, ``in_process`` (libnvJitLink where it opens), ``ptxas`` (a path), ``cuda_home``, ``opt_level``
    (0 to 3), ``ptxas_options``, ``cache_dir``, ``cache_max`` (bytes) and
    ``assume_grid`` (the CTAs along x, y and z every kernel is launched
    with, for the race checks: an int or up to three);
    ``warning_options`` are -W options ("-Wno-NAME", "-Werror", "-w", ...).
    Issues a PtxemitWarning for each warning of a module that translates.
    Raises ValueError for a -W option that names no warning.
    Raises PtxemitError with the diagnostics when the module has errors."""
    global _lib
    if _lib is None:
        _lib = _load()
    lib, libc = _lib
    src = text.encode("utf-8") if isinstance(text, str) else bytes(text)
    opt = _Options()
    lib.px_options_default(ctypes.byref(opt))
    keep = []  # the bytes the options point at live until the call returns

    def string(value):
        b = _bytes(value)
        keep.append(b)
        return b

    if target is not None:
        opt.target = string(target)
    if ptx is not None:
        opt.ptx = string(ptx)
    opt.lineinfo = bool(lineinfo)
    opt.debug = bool(debug)
    opt.remarks = bool(remarks)
    opt.verify_only = bool(verify_only)
    if jobs is not None:
        opt.jobs = int(jobs)
    if max_errors is not None:
        opt.max_errors = int(max_errors)
    if driver is not None:
        opt.driver = int(driver)
    if max_ptx is not None:
        opt.max_ptx = string(max_ptx)
    opt.cubin = bool(cubin)
    opt.resource_usage = bool(resource_usage)
    opt.in_process = bool(in_process)
    if ptxas is not None:
        opt.ptxas = string(os.fspath(ptxas))
    if cuda_home is not None:
        opt.cuda_home = string(os.fspath(cuda_home))
    if opt_level is not None:
        opt.opt_level = int(opt_level)
    if ptxas_options is not None:
        opt.ptxas_options = string(ptxas_options if isinstance(ptxas_options, str) else " ".join(ptxas_options))
    if cache_dir is not None:
        opt.cache_dir = string(os.fspath(cache_dir))
    if cache_max is not None:
        opt.cache_max = int(cache_max)
    if assume_grid is not None:
        dims = [assume_grid] if isinstance(assume_grid, int) else list(assume_grid)
        if not 1 <= len(dims) <= 3 or any(int(d) < 1 for d in dims):
            raise ValueError("assume_grid takes one to three counts of CTAs, each at least 1")
        for i in range(3):
            opt.assume_grid[i] = int(dims[i]) if i < len(dims) else 1
    for flag in warning_options:
        if lib.px_options_warning(ctypes.byref(opt), flag.encode("utf-8")) != 0:
            raise ValueError("unknown warning option '%s'" % flag)

    diags = []

    def collect(_ctx, p):
        d = p.contents
        record = {
            "file": _text(d.file),
            "line": d.line,
            "column": d.col,
            "severity": _SEVERITIES[d.severity] if 0 <= d.severity < 4 else "error",
            "message": _text(d.message),
            "notes": [],
        }
        if d.option:
            record["option"] = d.option.decode("utf-8", "replace")
        if d.dsl_file:
            record["dsl"] = {"file": _text(d.dsl_file), "line": d.dsl_line, "column": d.dsl_col}
        if d.code:
            record["code"] = _text(d.code)
        if d.ptx_line:
            record["ptx_line"] = d.ptx_line
        if d.usage:
            u = d.usage.contents
            record["resource_usage"] = {
                "function": _text(u.function), "kernel": bool(u.kernel), "registers": u.registers,
                "barriers": u.barriers, "stack": u.stack, "spill_stores": u.spill_stores,
                "spill_loads": u.spill_loads, "shared": u.shared, "local": u.local, "constant": u.constant,
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
    for record in diags:
        if record["severity"] == "warning":
            warnings.warn(PtxemitWarning(record), stacklevel=2)
    try:
        data = ctypes.string_at(out, outlen.value)
    finally:
        libc.free(out)
    if cubin and not verify_only:
        return Cubin(data)._said(diags)
    return Ptx(data.decode("utf-8"))._said(diags)
