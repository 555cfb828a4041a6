"""treering.libpath: where the package looks for libtreering.so, and its error message."""
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.normpath(os.path.join(HERE, "..", "..", "python-package"))
BUILD = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "..", "build")
LIB = os.path.join(BUILD, "lib", "libtreering.so")


def run(code, env_lib):
    env = dict(os.environ, PYTHONPATH=PACKAGE)
    env.pop("TREERING_LIBRARY", None)
    if env_lib is not None:
        env["TREERING_LIBRARY"] = env_lib
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, timeout=60)


def main():
    if not os.path.isfile(LIB):
        print(f"skip: {LIB} not built")
        return 77
    show = "import treering.libpath as l; print(l.find_lib_path())"
    # A file, or the directory holding it.
    for value in (LIB, os.path.dirname(LIB)):
        out = run(show, value)
        assert out.returncode == 0 and out.stdout.strip().endswith("libtreering.so"), out
    # The package imports and reports the library's build.
    out = run("import treering; print(sorted(treering.build_info()))", LIB)
    assert out.returncode == 0, out.stderr
    # A wrong TREERING_LIBRARY is reported, with every other place tried. Copy the package
    # to a directory without a build tree so the fallback cannot find one.
    with tempfile.TemporaryDirectory() as tmp:
        pkg = os.path.join(tmp, "pkg", "treering")
        os.makedirs(pkg)
        with open(os.path.join(PACKAGE, "treering", "libpath.py"), encoding="utf-8") as src:
            text = src.read()
        with open(os.path.join(pkg, "libpath.py"), "w", encoding="utf-8") as dst:
            dst.write(text)
        open(os.path.join(pkg, "__init__.py"), "w", encoding="utf-8").close()
        env = dict(os.environ, PYTHONPATH=os.path.join(tmp, "pkg"),
                   TREERING_LIBRARY=os.path.join(tmp, "nope.so"), LD_LIBRARY_PATH="")
        out = subprocess.run([sys.executable, "-c", show], env=env, capture_output=True,
                             text=True, timeout=60)
        if "find_library" in out.stdout or out.returncode == 0:
            print("skip: a system-wide libtreering.so is installed")
            return 0
        err = out.stderr
        for needle in ("TREERING_LIBRARY=" + os.path.join(tmp, "nope.so"),
                       os.path.join(tmp, "build", "lib", "libtreering.so"),
                       "find_library('treering')", "TreeringLibraryNotFound"):
            assert needle in err, (needle, err)
    # `cmake --install --component python` into a prefix: the installed package finds the
    # library in <prefix>/lib with no TREERING_LIBRARY and no build tree.
    cmake = shutil.which("cmake")
    if cmake and os.path.isfile(os.path.join(BUILD, "cmake_install.cmake")):
        with tempfile.TemporaryDirectory() as prefix:
            subprocess.run([cmake, "--install", BUILD, "--component", "python", "--prefix",
                            prefix], check=True, capture_output=True, timeout=60)
            site = os.path.join(prefix, "lib", "python3", "dist-packages")
            assert os.path.isfile(os.path.join(site, "treering", "core.py")), "not installed"
            shutil.copy(LIB, os.path.join(prefix, "lib", "libtreering.so"))
            env = dict(os.environ, PYTHONPATH=site)
            env.pop("TREERING_LIBRARY", None)
            out = subprocess.run([sys.executable, "-c", show + "; import treering"], env=env,
                                 capture_output=True, text=True, timeout=60, cwd=prefix)
            assert out.returncode == 0, out.stderr
            assert out.stdout.strip() == os.path.join(prefix, "lib", "libtreering.so"), out
    print("libpath: 5/5 checks passed")
    return 0


sys.exit(main())
