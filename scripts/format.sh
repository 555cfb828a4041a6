#!/usr/bin/env bash
# Formats every C++ file of the project in place with clang-format (.clang-format), the check
# scripts/check-style.sh runs in CI.
set -euo pipefail
cd "$(dirname "$0")/.."
find base net rabit tracker data booster demo bench tests \( -name '*.cc' -o -name '*.h' -o -name '*.inc' \) \
  -print0 | xargs -0 clang-format -i
