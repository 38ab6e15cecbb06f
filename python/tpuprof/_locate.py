"""Where the installed tools and runtime are.

The package sits in PREFIX/lib/python3/dist-packages/tpuprof (or wherever
TPUPROF_INSTALL_PYTHONDIR put it); _layout.py, written at install time,
holds the tools' and the runtime's directories relative to it, so a moved
prefix keeps working. TPUPROF_PREFIX overrides it: a prefix or a build
directory, with bin/ and lib/ below it.
"""

import os

from ._errors import Error

PREFIX_ENV = "TPUPROF_PREFIX"


def _dirs():
    prefix = os.environ.get(PREFIX_ENV)
    if prefix:
        return os.path.join(prefix, "bin"), os.path.join(prefix, "lib")
    try:
        from . import _layout
    except ImportError:
        raise Error("tpuprof: this copy of the package is not installed (no _layout.py); "
                    "set %s to a tpuprof prefix or build directory" % PREFIX_ENV) from None
    here = os.path.dirname(os.path.realpath(__file__))
    return (os.path.normpath(os.path.join(here, _layout.BINDIR)),
            os.path.normpath(os.path.join(here, _layout.LIBDIR)))


def _existing(path, what):
    if not os.path.exists(path):
        how = ("%s=%s" % (PREFIX_ENV, os.environ[PREFIX_ENV]) if os.environ.get(PREFIX_ENV)
               else "the package's install prefix; set %s to another" % PREFIX_ENV)
        raise Error("tpuprof: %s not found at %s (from %s)" % (what, path, how))
    return path


def runtime_library():
    """Path of libtpuprof_rt.so."""
    return _existing(os.path.join(_dirs()[1], "libtpuprof_rt.so"), "the runtime library")


def tool(name):
    """Path of the installed tool `name` (e.g. tpuprof-report)."""
    return _existing(os.path.join(_dirs()[0], name), name)
