#!/usr/bin/env bash
# Instruction counts of the C++ benchmark's code (scripts/bench-cpp.sh's Car and MarketData
# encode and decode, Sable with checks on and off, and the hand-written baseline), under
# valgrind's callgrind: deterministic, so comparable across commits on a busy machine where
# timings are not. Prints instructions per operation. Needs g++ and valgrind.
#   SABLE (the sable binary to generate with; default: built from this tree), N=2000 (operations per count), CXXFLAGS (default -O3 -DNDEBUG, as the benchmark's Release),
#   EXTRA_DEFINES (e.g. -DSABLE_ENABLE_ACCESS_ORDER_CHECKS) for the Sable codecs.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
n="${N:-2000}"
if [ -z "${SABLE:-}" ]; then
  cargo build -q --release -p sable-cli
fi
sable="${SABLE:-$CARGO_TARGET_DIR/release/sable}"
dir="$CARGO_TARGET_DIR/cpp/count"
rm -rf "$dir" && mkdir -p "$dir/gen"
shared="${SABLE_SHARED_DIR:-$root/../shared}/schemas/valid"
for kind in checked unchecked; do
  "$sable" generate --lang cpp -o "$dir/gen" --package "sable_bench.$kind.car" "$shared/bench-car.xml" 2>/dev/null
  "$sable" generate --lang cpp -o "$dir/gen" --package "sable_bench.$kind.md" \
      "$shared/bench-fix-message-samples.xml" 2>/dev/null
done
flags=(${CXXFLAGS:--O3 -DNDEBUG} -std=c++17 -I "$dir/gen" -I cpp/bench)
objs=()
for src in count_main baseline sable_checked sable_unchecked; do
  extra=()
  case "$src" in sable_*) extra=(${EXTRA_DEFINES:-}) ;; esac
  "${CXX:-g++}" "${flags[@]}" "${extra[@]}" -c "cpp/bench/$src.cpp" -o "$dir/$src.o"
  objs+=("$dir/$src.o")
done
"${CXX:-g++}" "${objs[@]}" -o "$dir/codec_count"
printf '| instructions per op | car/encode | car/decode | md/encode | md/decode |\n| --- |%s\n' \
    ' ---: | ---: | ---: | ---: |'
for codec in baseline sable_nocheck sable; do
  row="| $codec |"
  for op in car/encode car/decode md/encode md/decode; do
    out="$dir/cg.out"
    valgrind --tool=callgrind --callgrind-out-file="$out" --toggle-collect=sable_count_loop \
        "$dir/codec_count" "$codec" "$op" "$n" >/dev/null 2>"$dir/cg.log"
    total=$(sed -n 's/^summary: //p; s/^totals: //p' "$out" | head -1 | awk '{print $1}')
    row="$row $(awk -v t="$total" -v n="$n" 'BEGIN { printf "%.1f", t / n }') |"
  done
  echo "$row"
done
