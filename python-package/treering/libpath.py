"""Locate libtreering.so, the C library this package drives through ctypes."""
import ctypes.util
import os


class TreeringLibraryNotFound(Exception):
    """No libtreering.so was found in any of the places searched."""


def _build_tree_dir():
    # python-package/treering/libpath.py -> <checkout>/build/lib
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.normpath(os.path.join(here, "..", "..", "build", "lib"))


def find_lib_path():
    """Return the path of libtreering.so.

    Order: the TREERING_LIBRARY environment variable (a file, or a directory holding
    libtreering.so), the build tree ``../../build/lib`` beside the package source, the
    prefix `cmake --install` put the package in, then the system's search
    (``ctypes.util.find_library``). The error lists every place tried.
    """
    tried = []
    env = os.environ.get("TREERING_LIBRARY")
    if env:
        candidate = os.path.join(env, "libtreering.so") if os.path.isdir(env) else env
        if os.path.isfile(candidate):
            return candidate
        tried.append("TREERING_LIBRARY=" + env + " (no such file)")
    else:
        tried.append("TREERING_LIBRARY (not set)")
    build_lib = os.path.join(_build_tree_dir(), "libtreering.so")
    if os.path.isfile(build_lib):
        return build_lib
    tried.append(build_lib + " (build tree; not found)")
    try:  # written by `cmake --install` into the installed package
        from ._install_location import LIB_DIR
    except ImportError:
        LIB_DIR = None
    if LIB_DIR:
        installed = os.path.join(LIB_DIR, "libtreering.so")
        if os.path.isfile(installed):
            return installed
        tried.append(installed + " (install prefix; not found)")
    found = ctypes.util.find_library("treering")
    if found:
        return found
    tried.append("ctypes.util.find_library('treering') (nothing on the system path)")
    raise TreeringLibraryNotFound(
        "Cannot find libtreering.so. Looked in:\n  - " + "\n  - ".join(tried)
        + "\nBuild it (cmake --build build --target treering_shared) or set TREERING_LIBRARY.")
