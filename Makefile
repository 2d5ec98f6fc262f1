# Sable's build, demo, tests, fuzzing and benchmarks. See README.md.

CARGO ?= cargo
SABLE := target/release/sable
# How long `make fuzz` runs the fuzzer, in seconds.
FUZZ_SECONDS ?= 60

.PHONY: build demo test fuzz bench

## build: the release binary, target/release/sable
build:
	$(CARGO) build --release

## demo: build, print the IR dump of the bundled Car schema, encode a Car message from canonical
## JSON and decode it back (as JSON and as text), then generate the schema's Java, Rust, C++,
## C#, Go, Python and TypeScript codecs into target/demo-codecs
demo: build
	$(SABLE) ir examples/car.xml
	@echo
	$(SABLE) encode --schema examples/car.xml examples/car.jsonl -o target/demo-car.bin
	$(SABLE) decode --schema examples/car.xml target/demo-car.bin
	$(SABLE) decode --schema examples/car.xml --format text target/demo-car.bin
	@echo
	rm -rf target/demo-codecs
	$(SABLE) generate --lang java --output target/demo-codecs/java examples/car.xml
	$(SABLE) generate --lang rust --output target/demo-codecs/rust examples/car.xml
	$(SABLE) generate --lang cpp --output target/demo-codecs/cpp examples/car.xml
	$(SABLE) generate --lang csharp --output target/demo-codecs/csharp examples/car.xml
	$(SABLE) generate --lang go --output target/demo-codecs/go examples/car.xml
	$(SABLE) generate --lang python --output target/demo-codecs/python examples/car.xml
	$(SABLE) generate --lang typescript --output target/demo-codecs/typescript examples/car.xml
	@find target/demo-codecs -type f | sort

## test: install what the tests need, fetch the reference jar, then tests, clippy and rustfmt
test:
	bash scripts/test.sh

## fuzz: bounded libFuzzer runs (FUZZ_SECONDS each) of the schema and .sbeir readers, of
## the message decoder, then of every generator over arbitrary .sbeir files, on nightly
fuzz: build
	@command -v cargo-fuzz >/dev/null 2>&1 || $(CARGO) install cargo-fuzz --locked
	@rustup toolchain list | grep -q '^nightly' || rustup toolchain install nightly --profile minimal
	bash fuzz/seed-corpus.sh
	cd fuzz && cargo +nightly fuzz run parse_schema -- -max_total_time=$(FUZZ_SECONDS)
	cd fuzz && cargo +nightly fuzz run decode -- -max_total_time=$(FUZZ_SECONDS)
	cd fuzz && cargo +nightly fuzz run sbeir_generate -- -max_total_time=$(FUZZ_SECONDS)

## bench: schema compilation (criterion, then `sable ir` vs the reference jar end to end), schema
## loading per MB of generated 1, 10 and 50 MB schemas (criterion), then decode-to-JSON
## (criterion, then Sable vs the reference's JsonPrinter on the same files)
bench: build
	$(CARGO) bench -p sable-cli --bench compile
	$(CARGO) bench -p sable-schema --bench load
	bash scripts/bench-startup.sh
	$(CARGO) bench -p sable-otf --bench decode_json
	bash scripts/bench-decode.sh
