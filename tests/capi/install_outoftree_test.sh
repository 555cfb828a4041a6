#!/usr/bin/env bash
# install_outoftree_test.sh <build dir> <tests/capi/outoftree>
# Installs the build into a temporary prefix (cmake --install), then builds the programs of
# outoftree/ as a user would and runs them:
#   1. find_package(treering): shared target (C demos with <xgboost/c_api.h>, the tracker
#      driver and a worker), static target (a C demo, a C worker, a C++ rabit.h user);
#   2. pkg-config --cflags --libs treering (shared) and treering-static (static);
#   3. XGBoost 1.7.4's own demo/c-api sources, from the mirror of its repository when present
#      ($TREERING_XGBOOST_SRC, default .mirror/dmlc+xgboost/repo beside the checkout, where the
#      project's tools put fetched repositories), with their data. Without them this step says
#      so loudly and the test still passes on the project's own equivalents (basic, inference).
# A program whose C API functions libtreering.so does not define yet is skipped, by name:
# exit 77 when anything was skipped and nothing failed, 1 when anything failed.
set -uo pipefail
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
xgb_src=${TREERING_XGBOOST_SRC:-$src/../../../../.mirror/dmlc+xgboost/repo}
work=$(mktemp -d /tmp/treering-outoftree.XXXXXX)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
failed=()
skipped=()
passed=()

step() { echo; echo "=== $*"; }
fail() { echo "FAIL: $*"; failed+=("$1"); }

step "cmake --install $build --prefix $prefix"
if ! cmake --install "$build" --prefix "$prefix" > "$work/install.log" 2>&1; then
  cat "$work/install.log"
  echo "FAIL: install (build everything first: cmake --build $build)"
  exit 1
fi
for f in lib/libtreering.so lib/libtreering.a include/treering/c_api.h \
         include/treering/compat/xgboost/c_api.h include/treering/collective/rabit/rabit.h \
         include/treering/collective/base/status.h lib/cmake/treering/treeringConfig.cmake \
         lib/cmake/treering/treeringConfigVersion.cmake lib/pkgconfig/treering.pc \
         lib/pkgconfig/treering-static.pc bin/treering bin/treering-tracker bin/treering-submit; do
  [ -e "$prefix/$f" ] || fail "installed file $f missing"
done
soname=$(readelf -d "$prefix/lib/libtreering.so" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
[ -e "$prefix/lib/$soname" ] || fail "SONAME $soname not installed"
echo "installed: $(cd "$prefix" && find . -type f | wc -l) files, SONAME $soname"

# The XG* functions a source calls, and those the installed library lacks.
defined=$(nm -D --defined-only "$prefix/lib/libtreering.so" | awk '{print $3}' | sed 's/@.*//')
missing_for() {
  grep -ohE '\bXG[A-Za-z_]+[[:space:]]*\(' "$@" | tr -d '( \t' | sort -u |
    while read -r fn; do grep -qx "$fn" <<<"$defined" || echo "$fn"; done | tr '\n' ' '
}
programs=()
declare -A sources=([basic]="basic.c" [inference]="inference.c"
                    [tracker]="tracker_driver.c collective_worker.c" [rabit_user]="rabit_user.cc")
for p in basic inference tracker rabit_user; do
  m=$(cd "$src" && missing_for ${sources[$p]})
  if [ -n "$m" ]; then
    echo "SKIP $p: libtreering.so lacks $m"
    skipped+=("$p")
  else
    programs+=("$p")
  fi
done

run() {  # run <name> <dir> <command...>
  local name=$1 dir=$2
  shift 2
  if (cd "$dir" && "$@") > "$work/$name.log" 2>&1; then
    echo "PASS $name: $(tail -1 "$work/$name.log")"
    passed+=("$name")
  else
    cat "$work/$name.log"
    fail "$name"
  fi
}

step "find_package(treering): programs ${programs[*]:-none}"
export LD_LIBRARY_PATH=$prefix/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
if [ ${#programs[@]} -gt 0 ]; then
  list=$(IFS=';'; echo "${programs[*]}")
  if cmake -S "$src" -B "$work/cmake" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" \
       -DCMAKE_BUILD_TYPE=Release "-DPROGRAMS=$list" > "$work/configure.log" 2>&1 &&
     cmake --build "$work/cmake" > "$work/build.log" 2>&1; then
    b=$work/cmake
    for p in "${programs[@]}"; do
      case $p in
        basic) run cmake_basic "$b" ./basic; run cmake_basic_static "$b" ./basic_static ;;
        inference) run cmake_inference "$b" ./inference ;;
        tracker)
          run cmake_tracker_shared "$b" ./tracker_driver 3 ./collective_worker
          run cmake_tracker_static_workers "$b" ./tracker_driver 3 ./collective_worker_static ;;
        rabit_user) run cmake_rabit_user "$b" ./rabit_user ;;
      esac
    done
    # A C-only project links the static target too (its C programs only).
    if cmake -S "$src" -B "$work/cmake_c" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" -DC_ONLY=ON \
         -DCMAKE_BUILD_TYPE=Release "-DPROGRAMS=$list" > "$work/configure_c.log" 2>&1 &&
       cmake --build "$work/cmake_c" > "$work/build_c.log" 2>&1; then
      [ -x "$work/cmake_c/basic_static" ] && run cmake_c_only_basic_static "$work/cmake_c" ./basic_static
      [ -x "$work/cmake_c/collective_worker_static" ] &&
        run cmake_c_only_static_workers "$work/cmake_c" ./tracker_driver 3 ./collective_worker_static
    else
      cat "$work/configure_c.log" "$work/build_c.log" 2>/dev/null | tail -40
      fail "find_package build of a C-only project"
    fi
    # The static programs carry no libtreering.so dependency.
    for s in basic_static collective_worker_static rabit_user; do
      [ -x "$b/$s" ] || continue
      if readelf -d "$b/$s" | grep -q 'libtreering'; then fail "$s links libtreering.so"; fi
    done
  else
    cat "$work/configure.log" "$work/build.log" 2>/dev/null | tail -40
    fail "find_package build"
  fi
fi

step "pkg-config --cflags --libs treering / treering-static"
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
pc=$work/pkgconfig
mkdir -p "$pc"
compat=$(pkg-config --variable=compat treering)
shared_flags="$(pkg-config --cflags --libs treering) -Wl,-rpath,$prefix/lib"
static_flags=$(pkg-config --cflags --libs treering-static)
echo "treering: $shared_flags"
echo "treering-static: $static_flags"
build_pc() {  # build_pc <name> <compiler> <flags> <sources...>
  local name=$1 cc=$2 flags=$3
  shift 3
  # shellcheck disable=SC2086
  if ! $cc -O1 -o "$pc/$name" "$@" $flags > "$work/pc_$name.log" 2>&1; then
    cat "$work/pc_$name.log"
    fail "pkg-config build of $name"
    return 1
  fi
}
# Whatever links, every C program must compile cleanly against the installed header (through
# the compat header where it includes <xgboost/c_api.h>).
for f in basic.c inference.c tracker_driver.c collective_worker.c; do
  if cc -std=c99 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -c -o "$pc/${f%.c}.o" \
       -I"$compat" $(pkg-config --cflags treering) "$src/$f" > "$work/cc_$f.log" 2>&1; then
    passed+=("compile_$f")
  else
    cat "$work/cc_$f.log"
    fail "compile_$f"
  fi
done
for p in "${programs[@]}"; do
  case $p in
    basic)
      build_pc basic cc "-I$compat $shared_flags -lm" "$src/basic.c" && run pc_basic "$pc" ./basic
      build_pc basic_static cc "-I$compat $static_flags" "$src/basic.c" &&
        run pc_basic_static "$pc" ./basic_static ;;
    inference)
      build_pc inference cc "-I$compat $shared_flags" "$src/inference.c" &&
        run pc_inference "$pc" ./inference ;;
    tracker)
      build_pc tracker_driver cc "$shared_flags" "$src/tracker_driver.c" &&
        build_pc collective_worker cc "$static_flags" "$src/collective_worker.c" &&
        run pc_tracker "$pc" ./tracker_driver 3 ./collective_worker ;;
    rabit_user)
      build_pc rabit_user c++ "-std=c++20 $static_flags" "$src/rabit_user.cc" &&
        run pc_rabit_user "$pc" ./rabit_user ;;
  esac
done

step "XGBoost 1.7.4's demo/c-api sources against the installed treering"
if git -C "$xgb_src" rev-parse -q --verify v1.7.4 > /dev/null 2>&1; then
  demo=$work/xgboost/demo
  mkdir -p "$demo/c-api/basic" "$demo/c-api/inference" "$demo/data"
  for f in c-api/basic/c-api-demo.c c-api/inference/inference.c data/agaricus.txt.train \
           data/agaricus.txt.test; do
    git -C "$xgb_src" show "v1.7.4:demo/$f" > "$demo/$f"
  done
  for d in basic/c-api-demo inference/inference; do
    name=xgboost_$(basename "$d")
    # XGBoost's own source must compile against treering's header as it is.
    if cc -c -o "$demo/c-api/$d.o" "$demo/c-api/$d.c" -I"$compat" $(pkg-config --cflags treering) \
         > "$work/$name.cc.log" 2>&1; then
      passed+=("compile_$name")
    else
      cat "$work/$name.cc.log"
      fail "compile_$name"
      continue
    fi
    m=$(missing_for "$demo/c-api/$d.c")
    if [ -n "$m" ]; then
      echo "SKIP $name: libtreering.so lacks $m"
      skipped+=("$name")
      continue
    fi
    if cc -O1 -o "$demo/c-api/$d" "$demo/c-api/$d.c" -I"$compat" $shared_flags -lm \
         > "$work/$name.build.log" 2>&1; then
      run "$name" "$demo/c-api/$(dirname "$d")" "./$(basename "$d")"
    else
      cat "$work/$name.build.log"
      fail "$name (compile)"
    fi
  done
else
  echo "SKIP (loudly): no XGBoost sources with tag v1.7.4 at $xgb_src;" \
       "set TREERING_XGBOOST_SRC to a clone of dmlc/xgboost to compile its demos" \
       "(the project's own equivalents above ran)"
fi

step "summary"
echo "passed (${#passed[@]}): ${passed[*]:-}"
echo "skipped (${#skipped[@]}): ${skipped[*]:-}"
echo "failed (${#failed[@]}): ${failed[*]:-}"
[ ${#failed[@]} -eq 0 ] || exit 1
[ ${#skipped[@]} -eq 0 ] || exit 77
exit 0
