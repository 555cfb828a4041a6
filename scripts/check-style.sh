#!/usr/bin/env bash
# Cheap structural checks that keep the codebase as STYLE.md says:
#  * `#pragma omp` appears only in the ParallelFor helper;
#  * no source file is longer than 600 lines.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
omp=$(grep -rln --include='*.cc' --include='*.h' '#pragma omp' base rabit tracker data booster demo bench tests 2>/dev/null \
      | grep -v '^base/include/base/parallel_for.h$' || true)
if [ -n "$omp" ]; then
  echo "check-style: '#pragma omp' outside base/include/base/parallel_for.h:"; echo "$omp"; status=1
fi
while IFS= read -r f; do
  n=$(wc -l < "$f")
  if [ "$n" -gt 600 ]; then echo "check-style: $f has $n lines (limit 600)"; status=1; fi
done < <(find base rabit tracker data booster demo bench tests -name '*.cc' -o -name '*.h' 2>/dev/null)
exit $status
