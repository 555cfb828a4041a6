#!/usr/bin/env bash
# Installs everything treering needs from Debian 12 packages: the toolchain, the libraries it
# builds against, and the reference peers its tests and benchmarks run (xgboost, Open MPI).
# Idempotent and non-interactive; skips apt entirely when every package is already installed.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git
  clang-format                              # scripts/check-style.sh: format drift fails CI
  libboost-dev libboost-system-dev          # Boost.Asio (tracker, launcher)
  openmpi-bin libopenmpi-dev                # MPI engine, mpirun
  libomp-dev                                # OpenMP (g++ uses libgomp; clang builds use libomp)
  libcli11-dev nlohmann-json3-dev           # command lines, model JSON
  libssl-dev                                # libcrypto: HMAC-SHA256 handshakes, nonces (tracker/auth.h)
  libgtest-dev googletest                   # tests
  clang libclang-rt-14-dev                  # libFuzzer build of the parser fuzz target
  xgboost python3-xgboost python3-numpy     # reference peer for tests and benchmarks
  python3-pytest python3-scipy python3-pandas python3-sklearn  # Python package tests (tests/python)
  python3-dask python3-distributed          # treering.dask and its tests
  python3-matplotlib python3-graphviz graphviz  # plot_importance / plot_tree / to_graphviz, XGBoost demos
  libxgboost-dev                            # XGBoost 1.7's c_api.h: the C API's reference header,
                                            # and libxgboost.so the C API tests' peer
  dataset-fashion-mnist                     # demo and benchmark data
  time procps                               # /usr/bin/time -v for peak memory in benchmarks
  curl                                      # bench/data/http_load.sh: the HTTP transfer ceiling
  libopenblas-dev                           # GEMM of the MLP learner (docs/mlp.md: measured vs Eigen)
  python3-torch                             # PyTorch 1.13: peer of the MLP learner (tests/mlp, bench/mlp)
  openssh-server openssh-client             # tests/cluster: a real sshd per simulated host (--cluster ssh/mpi)
  slurm-wlm munge                           # tests/cluster/slurm.sh: a real Slurm (slurmctld, slurmd per host)
  chromium                                  # tests/cli/status_page_test.py: the status page in a real browser
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "install-deps: installing ${missing[*]}"
$SUDO apt-get update -q
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${packages[@]}"
