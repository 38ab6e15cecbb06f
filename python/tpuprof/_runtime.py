"""Profiling control over the installed libtpuprof_rt, through ctypes.

Every function maps to one call of the C API in tpuprof/tpuprof.h
(docs/runtime.md); the runtime prints why a call failed on stderr, and the
call raises Error here. The library is loaded on first use with RTLD_GLOBAL,
so a model loaded later that needs libtpuprof_rt.so binds to this copy and
its probes record into the windows opened here.
"""

import contextlib
import ctypes
import os
import threading

from . import _locate
from ._errors import Error

_ON_READY = ctypes.CFUNCTYPE(None, ctypes.c_char_p, ctypes.c_void_p)


class _Schedule(ctypes.Structure):
    """struct tpuprof_schedule."""
    _fields_ = [("skip_first", ctypes.c_uint32), ("wait", ctypes.c_uint32),
                ("warmup", ctypes.c_uint32), ("active", ctypes.c_uint32),
                ("repeat", ctypes.c_uint32), ("max_records", ctypes.c_uint64),
                ("mode", ctypes.c_int), ("on_ready", _ON_READY),
                ("user", ctypes.c_void_p)]


# name: (restype, argtypes)
_SIGNATURES = {
    "tpuprof_enable": (ctypes.c_int, [ctypes.c_uint64, ctypes.c_int]),
    "tpuprof_disable": (ctypes.c_int, []),
    "tpuprof_flush": (ctypes.c_int, []),
    "tpuprof_is_enabled": (ctypes.c_int, []),
    "tpuprof_last_dump_path": (ctypes.c_char_p, []),
    "tpuprof_set_output": (None, [ctypes.c_char_p, ctypes.c_int]),
    "tpuprof_set_events": (ctypes.c_int, [ctypes.c_char_p]),
    "tpuprof_set_schedule": (ctypes.c_int, [ctypes.POINTER(_Schedule)]),
    "tpuprof_step": (ctypes.c_uint64, []),
    "tpuprof_range_id": (ctypes.c_uint32, [ctypes.c_char_p]),
    "tpuprof_range_begin": (None, [ctypes.c_uint32]),
    "tpuprof_range_end": (None, [ctypes.c_uint32]),
}

_lock = threading.Lock()
_lib = None
_enabled_flag = None


def _rt():
    """The loaded runtime (loads it on first use)."""
    global _lib, _enabled_flag
    if _lib is None:
        with _lock:
            if _lib is None:
                path = _locate.runtime_library()
                try:
                    lib = ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
                except OSError as e:
                    raise Error("tpuprof: cannot load %s: %s" % (path, e)) from None
                for name, (restype, argtypes) in _SIGNATURES.items():
                    fn = getattr(lib, name)
                    fn.restype, fn.argtypes = restype, argtypes
                _enabled_flag = ctypes.c_uint32.in_dll(lib, "__tpuprof_enabled")
                _lib = lib
    return _lib


def library_path():
    """Path of the libtpuprof_rt.so this package controls."""
    return _locate.runtime_library()


def _check(rc, call):
    if rc != 0:
        raise Error("tpuprof: %s failed (the runtime said why on stderr)" % call)


def _mode(mode):
    if mode not in (0, 1, 2):
        raise ValueError("tpuprof: mode must be 0 (timing), 1 (counters) or 2 (detailed), not %r"
                         % (mode,))
    return mode


def _max_records(n):
    if not isinstance(n, int) or n < 0:
        raise ValueError("tpuprof: max_records must be an int >= 0, not %r" % (n,))
    return n


def enable(max_records=0, mode=0):
    """Opens a profiling window (tpuprof_enable). max_records: the most
    timing-only records a thread keeps (a cap, not an allocation), 0 =
    TPUPROF_RECORD_SIZE or 131072; mode 0 timing, 1 + PMU counters and
    dynamic shapes, 2 detailed."""
    _check(_rt().tpuprof_enable(_max_records(max_records), _mode(mode)),
           "enable(max_records=%d, mode=%d)" % (max_records, mode))


def disable():
    """Closes the window and writes its dump; returns the dump's path."""
    _check(_rt().tpuprof_disable(), "disable()")
    return last_dump_path()


def flush():
    """Writes the window so far as a dump of its own and goes on in a new
    window; returns the dump's path."""
    _check(_rt().tpuprof_flush(), "flush()")
    return last_dump_path()


def is_enabled():
    """Whether a profiling window is open."""
    return bool(_rt().tpuprof_is_enabled())


def step():
    """Ends the current step (drives schedules); returns the new step number."""
    return _rt().tpuprof_step()


def last_dump_path():
    """Path of the last dump this process wrote, or None."""
    path = _rt().tpuprof_last_dump_path()
    return os.fsdecode(path) if path else None


def set_output(directory=None, device=None):
    """Sets where later dumps go (overrides TPUPROF_OUTPUT; the directory is
    created) and the device id in their names (overrides TPUPROF_DEVICE).
    None keeps the current value."""
    if device is not None and (not isinstance(device, int) or device < 0):
        raise ValueError("tpuprof: device must be an int >= 0, not %r" % (device,))
    if directory is not None:
        os.makedirs(directory, exist_ok=True)
    _rt().tpuprof_set_output(None if directory is None else os.fsencode(directory),
                             -1 if device is None else device)
    if directory is not None:
        _output_state["dir"] = os.fspath(directory)
    if device is not None:
        _output_state["device"] = device


# What set_output() last set; profile() restores it (the C API has no getter).
_output_state = {}


def set_events(events=None):
    """PMU events of later mode-1/2 windows: libpfm4 names, a list or one
    comma-separated string; None restores the default set."""
    if events is not None and not isinstance(events, str):
        events = ",".join(events)
    _check(_rt().tpuprof_set_events(None if events is None else events.encode()),
           "set_events(%r)" % (events,))


class schedule:
    """Step-driven windows, as torch.profiler.schedule: after `skip_first`
    steps, cycles of `wait` steps off, `warmup` steps recorded but dropped
    and `active` steps written as one dump; `repeat` cycles (0 = until the
    profile ends). tpuprof.step() ends a step."""

    def __init__(self, *, wait=0, warmup=0, active=1, repeat=0, skip_first=0):
        self.wait, self.warmup, self.active = wait, warmup, active
        self.repeat, self.skip_first = repeat, skip_first

    def __repr__(self):
        return ("tpuprof.schedule(wait=%d, warmup=%d, active=%d, repeat=%d, skip_first=%d)"
                % (self.wait, self.warmup, self.active, self.repeat, self.skip_first))


_Steps = schedule  # profile()'s argument `schedule` hides the class


class profile(contextlib.ContextDecorator):
    """Profiles a block or, as @tpuprof.profile(), every call of a function.

    mode, max_records: as enable(). output, device: where this profile's
    dumps go (restored afterwards). schedule: a tpuprof.schedule; windows then
    follow tpuprof.step() (or .step()) instead of covering the whole block.
    After the block, .dumps lists the dumps written and .load() reads them.
    """

    def __init__(self, mode=0, output=None, schedule=None, *, max_records=0, device=None):
        self.mode = _mode(mode)
        self.max_records = _max_records(max_records)
        if schedule is not None and not isinstance(schedule, _Steps):
            raise TypeError("tpuprof: schedule must be a tpuprof.schedule(...), not %r"
                            % (schedule,))
        self.output, self.device, self.schedule = output, device, schedule
        self.dumps = []
        self._on_ready = None
        self._restore = None

    def __enter__(self):
        rt = _rt()
        self.dumps = []
        if self.output is not None or self.device is not None:
            self._restore = _current_output()
            set_output(self.output, self.device)
        try:
            if self.schedule is None:
                enable(self.max_records, self.mode)
            else:
                self._start_schedule(rt)
        except BaseException:
            self._restore_output()
            raise
        return self

    def __exit__(self, *exc):
        try:
            if self.schedule is None:
                self.dumps.append(disable())
            else:
                _check(_rt().tpuprof_set_schedule(None), "profile(schedule=...) end")
                self._on_ready = None
        finally:
            self._restore_output()
        return False

    def _start_schedule(self, rt):
        s = self.schedule
        dumps = self.dumps

        def on_ready(path, user):
            dumps.append(os.fsdecode(path))

        self._on_ready = _ON_READY(on_ready)  # kept alive while the schedule runs
        c = _Schedule(skip_first=s.skip_first, wait=s.wait, warmup=s.warmup, active=s.active,
                      repeat=s.repeat, max_records=self.max_records, mode=self.mode,
                      on_ready=self._on_ready, user=None)
        _check(rt.tpuprof_set_schedule(ctypes.byref(c)), "profile(schedule=%r)" % (s,))

    def _restore_output(self):
        if self._restore is not None:
            directory, device = self._restore
            self._restore = None
            set_output(directory, device)

    @staticmethod
    def step():
        """tpuprof.step()."""
        return step()

    def load(self):
        """The dumps of this profile as a tpuprof.Profile."""
        from ._results import load
        if not self.dumps:
            raise Error("tpuprof: this profile wrote no dump")
        return load(self.dumps)


def _current_output():
    """The runtime's current output directory and device, as far as this
    package knows: the environment's until set_output() changes them."""
    directory = _output_state.get("dir") or os.environ.get("TPUPROF_OUTPUT") or "."
    device = _output_state.get("device")
    if device is None:
        try:
            device = max(int(os.environ.get("TPUPROF_DEVICE", "0")), 0)
        except ValueError:
            device = 0
    return directory, device


class scope(contextlib.ContextDecorator):
    """A user range (a probe of kind "user") around a block or, as
    @tpuprof.scope("name"), around every call of a function, like PyTorch's
    record_function. Costs one flag read while profiling is off."""

    def __init__(self, name):
        if not isinstance(name, str) or not name:
            raise ValueError("tpuprof: scope needs a non-empty name, not %r" % (name,))
        self.name = name
        self._id = None
        self._began = threading.local()  # per thread: a stack, for recursion

    def __enter__(self):
        rt = _rt()
        began = bool(_enabled_flag.value)
        if began:
            if self._id is None:
                self._id = rt.tpuprof_range_id(self.name.encode())
            rt.tpuprof_range_begin(self._id)
        stack = getattr(self._began, "stack", None)
        if stack is None:
            stack = self._began.stack = []
        stack.append(began)
        return self

    def __exit__(self, *exc):
        if self._began.stack.pop():
            _lib.tpuprof_range_end(self._id)
        return False
