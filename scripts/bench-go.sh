#!/usr/bin/env bash
# The Go codecs' benchmark (docs/benchmarks.md, "Go codecs"): Car and MarketData encode and
# decode, in one `go test -bench` run, with Sable's generated Go, the reference's generated Go
# (sbe-all 1.32.1), protobuf-go (the Java benchmarks' .proto files, through protoc and
# protoc-gen-go) and a hand-written encoding/binary baseline. Prepares the module of
# scripts/go-tests.sh ($CARGO_TARGET_DIR/go-tests/unit) and runs go/bench/ in it, under
# `flock /tmp/bench.lock` so that benchmarks never overlap.
#
#   scripts/bench-go.sh [GO_TEST_FLAGS...]     e.g. -benchtime=200ms for a short check
#   GO_BENCH_PREPARE_ONLY=1 scripts/bench-go.sh  the module only (scripts/count-go.sh uses it)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export PATH="$PATH:/usr/local/go/bin"
PROTOBUF_VERSION=v1.36.11
bash scripts/fetch-reference.sh # the reference's Go is generated from its jar
GO_TESTS_PREPARE_ONLY=1 bash scripts/go-tests.sh
u="${CARGO_TARGET_DIR:-$root/target}/go-tests/unit"
bin="$root/.cache/go/bin"
[ -x "$bin/protoc-gen-go" ] || GOBIN="$bin" go install "google.golang.org/protobuf/cmd/protoc-gen-go@$PROTOBUF_VERSION"
command -v protoc >/dev/null || { echo "bench-go: no protoc (apt-get install protobuf-compiler)" >&2; exit 1; }
mkdir -p "$u/pb" "$u/bench"
PATH="$bin:$PATH" protoc -I java/benchmarks/src/main/proto --go_out="$u/pb" --go_opt=paths=source_relative \
    --go_opt=Mcar.proto=sabletest/pb --go_opt=Mmarket_data.proto=sabletest/pb car.proto market_data.proto
cp go/bench/*.go "$u/bench/"
cd "$u"
go get "google.golang.org/protobuf@$PROTOBUF_VERSION" >/dev/null 2>&1
go test -count=1 -run 'Baseline' ./bench
[ -z "${GO_BENCH_PREPARE_ONLY:-}" ] || exit 0
flock /tmp/bench.lock go test -run '^$' -bench . -benchmem "$@" ./bench
