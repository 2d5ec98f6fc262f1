#!/usr/bin/env bash
# Installs what the C++ codec tests and benchmarks need on a fresh Debian machine: clang (with its
# libFuzzer and sanitizer runtimes), clang-format, GoogleTest, Google Benchmark, protobuf
# (library and protoc) and FlatBuffers (library and flatc). gcc/g++, cmake and ninja are expected
# to be there already; they are installed too when missing. Idempotent: apt-get runs only when
# something is missing.
set -euo pipefail

die() {
    echo "setup-cpp: $*" >&2
    exit 1
}

sudo=""
if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null 2>&1 || die "not root and no sudo: cannot install Debian packages"
    sudo="sudo"
fi

missing=()
need_cmd() { # need_cmd COMMAND PACKAGE
    command -v "$1" >/dev/null 2>&1 || missing+=("$2")
}
need_file() { # need_file PATH-GLOB PACKAGE
    compgen -G "$1" >/dev/null || missing+=("$2")
}

need_cmd g++ g++
need_cmd cmake cmake
need_cmd ninja ninja-build
need_cmd clang clang
need_cmd clang++ clang
need_cmd clang-format clang-format
need_cmd protoc protobuf-compiler
need_cmd flatc flatbuffers-compiler
need_file "/usr/include/gtest/gtest.h" libgtest-dev
need_file "/usr/include/benchmark/benchmark.h" libbenchmark-dev
need_file "/usr/include/google/protobuf/message.h" libprotobuf-dev
need_file "/usr/include/flatbuffers/flatbuffers.h" libflatbuffers-dev
# clang's libFuzzer runtime (libclang-rt-NN-dev on Debian 12 and later; part of the clang
# package's dependencies on some releases).
if command -v clang >/dev/null 2>&1; then
    need_file "/usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a" \
        "libclang-rt-$(clang -dumpversion | cut -d. -f1)-dev"
fi

if [ "${#missing[@]}" -gt 0 ]; then
    echo "setup-cpp: installing ${missing[*]} (Debian packages)" >&2
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        "${missing[@]}" >/dev/null
fi

# A second pass for the fuzzer runtime once clang is there (its version names the package).
if ! compgen -G "/usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a" >/dev/null; then
    pkg="libclang-rt-$(clang -dumpversion | cut -d. -f1)-dev"
    echo "setup-cpp: installing $pkg (Debian package)" >&2
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$pkg" >/dev/null
fi

for c in g++ clang++ clang-format protoc flatc cmake ninja; do
    command -v "$c" >/dev/null 2>&1 || die "$c not found after installing"
done
