# The side-by-side table of the allreduce benchmarks (sourced by allreduce_bench.sh and
# cluster_allreduce.sh). OUT holds per-round result files ours.NP.R, mpi.NP.R (and base.NP.R)
# of "bytes ... median_us" lines and choice.NP ("bytes algorithm ..." from
# rabit_allreduce_choice); prints the median over rounds per size and side, the ratios and the
# algorithm treering's cost model picked.
allreduce_report() {  # OUT NP [BASE]
  local out=$1 np=$2 base=${3:-}
  echo
  echo "np=$np"
  printf "%10s %12s %12s %10s %10s %9s %9s %9s%s\n" bytes ours_us mpi_us ours_GBps mpi_GBps t_ratio \
    bw_ratio algorithm "${base:+     base_us base/ours}"
  cat "$out"/ours."$np".* | awk '{print "ours", $1, $3}' > "$out/all.$np"
  cat "$out"/mpi."$np".* | awk '{print "mpi", $1, $3}' >> "$out/all.$np"
  if [ -n "$base" ]; then
    cat "$out"/base."$np".* | awk '{print "base", $1, $3}' >> "$out/all.$np"
  fi
  # Median over rounds per (side, size), then the side-by-side row.
  sort -k1,1 -k2,2n -k3,3g "$out/all.$np" | awk -v choices="$out/choice.$np" '
    { key = $1 " " $2; v[key, ++n[key]] = $3; sizes[$2] = 1 }
    END {
      while ((getline line < choices) > 0) { split(line, f, " "); algo[f[1]] = f[2] }
      for (k in n) { m = n[k]; med[k] = (m % 2) ? v[k, (m + 1) / 2] : (v[k, m / 2] + v[k, m / 2 + 1]) / 2 }
      for (s in sizes) {
        o = med["ours " s]; p = med["mpi " s]
        if (o == "" || p == "") continue
        printf "%10d %12.2f %12.2f %10.4f %10.4f %9.2f %9.2f %9s", s, o, p, s / o / 1e3, s / p / 1e3, o / p, p / o, algo[s]
        b = med["base " s]
        if (b != "") printf " %11.2f %9.2f", b, b / o
        printf "\n"
      }
    }' | sort -n
}
