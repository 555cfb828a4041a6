#!/usr/bin/python3
"""libtreering.so exports exactly the C API: every function declared XGB_DLL in c_api.h is
defined (nm -D --defined-only), and nothing else is exported but the version node of
capi/treering.map. Also checks the versioned SONAME.

usage: exported_symbols_test.py <c_api.h> <libtreering.so>
Fails listing the missing names while parts of the C API have not landed."""
import re
import subprocess
import sys


def declared(header_path):
    text = open(header_path).read()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)  # comments may mention XGB_DLL
    text = re.sub(r"#define XGB_DLL[^\n]*", "", text)
    return set(re.findall(r"XGB_DLL\s+[^;(]*?\b([A-Za-z_]\w*)\s*\(", text))


def exported(lib_path):
    out = subprocess.run(["nm", "-D", "--defined-only", lib_path], check=True,
                         capture_output=True, text=True).stdout
    names = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 3:
            name = parts[2].split("@")[0]
            names[name] = parts[1]
    return names


def main():
    header, lib = sys.argv[1], sys.argv[2]
    want = declared(header)
    have = exported(lib)
    version_nodes = {n for n, kind in have.items() if kind == "A" and re.match(r"TREERING_\d", n)}
    missing = sorted(want - set(have))
    extra = sorted(set(have) - want - version_nodes)
    soname = subprocess.run(["readelf", "-d", lib], check=True, capture_output=True,
                            text=True).stdout
    m = re.search(r"Library soname: \[(libtreering\.so\.\d+\.\d+)\]", soname)
    ok = True
    print(f"{len(want)} functions declared in c_api.h, {len(want) - len(missing)} defined in "
          f"{lib}; version node(s): {', '.join(sorted(version_nodes)) or 'none'}")
    if not version_nodes:
        print("no version node: the library was not linked with capi/treering.map")
        ok = False
    if missing:
        print(f"MISSING ({len(missing)}): declared but not exported:")
        for name in missing:
            print(f"  {name}")
        ok = False
    if extra:
        print(f"EXTRA ({len(extra)}): exported but not part of the C API:")
        for name in extra[:50]:
            print(f"  {name}")
        ok = False
    if not m:
        print("SONAME is not libtreering.so.<major>.<minor>")
        ok = False
    else:
        print(f"SONAME {m.group(1)}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
