"""tpuprof: profiling control and results from Python (docs/python.md).

Control, over the installed libtpuprof_rt (ctypes):

    import tpuprof
    with tpuprof.profile(mode=0, output="prof") as p:
        with tpuprof.scope("preprocess"):
            ...
        model(x)                      # probes compiled into the model record
    print(p.load().table())

    @tpuprof.profile()                # one window per call
    def run(): ...

    tpuprof.enable(max_records=0, mode=0); ...; tpuprof.disable()

Results, read by the installed tpuprof-report (no second dump parser):

    prof = tpuprof.load("prof")       # dumps, directories or JSON exports
    prof.rows()                       # list of dicts
    prof.to_pandas()                  # with pandas installed
    print(prof.table(sort="self"))    # as `tpuprof-report table` prints it

The package finds the tools and the runtime relative to its own install
location; TPUPROF_PREFIX=DIR (an install prefix or a build directory)
overrides that.
"""

from ._errors import Error
from ._results import Profile, load
from ._runtime import (disable, enable, flush, is_enabled, last_dump_path, library_path,
                       profile, schedule, scope, set_events, set_output, step)

__all__ = ["Error", "Profile", "disable", "enable", "flush", "is_enabled", "last_dump_path",
           "library_path", "load", "profile", "schedule", "scope", "set_events", "set_output",
           "step"]
