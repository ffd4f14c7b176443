#!/usr/bin/env bash
# Builds llama.cpp's OpenAI-compatible `llama-server` (MIT) for the end-to-end tests, with no
# network but the npm registry (and Debian packages for the compiler, if missing):
#  - source: the llama.cpp tree shipped in the npm package node-llama-cpp (llama/gitRelease.bundle);
#  - libraries: the prebuilt libllama / libggml / libllama-common of @node-llama-cpp/linux-x64, the
#    same release; only the server's own code (tools/server, tools/mtmd, vendor/) is compiled
#    (CMakeLists.txt beside this script), about 5-6 minutes on 2 cores;
#  - model: a tiny qwen2 GGUF with random weights (make-model.mjs), so tests check the protocol.
# The result is cached in ${XDG_CACHE_HOME:-$HOME/.cache}/agent-assistant-e2e/llama-server-<version>
# (bin/llama-server with its libraries beside it, model.gguf) and reused while this recipe is
# unchanged; a run with a complete cache takes well under a second. Idempotent; prints the
# directory on stdout (progress on stderr); exits non-zero if it cannot build.
set -euo pipefail

version=3.21.1
here="$(cd "$(dirname "$0")" && pwd)"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/agent-assistant-e2e"
out="$cache/llama-server-$version"
recipe="$(cat "$here/build.sh" "$here/CMakeLists.txt" "$here/make-model.mjs" | sha256sum | cut -c1-16)"
log() { echo "llama-server build: $*" >&2; }

if [ -f "$out/.complete" ] && [ "$(cat "$out/.complete")" = "$recipe" ] && [ -x "$out/bin/llama-server" ] && [ -f "$out/model.gguf" ]; then
  echo "$out"
  exit 0
fi

if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
  log "only linux x64 is supported (the prebuilt libraries are @node-llama-cpp/linux-x64)"
  exit 1
fi

missing=()
for tool in cmake g++ make git; do command -v "$tool" > /dev/null || missing+=("$tool"); done
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ] && command -v apt-get > /dev/null; then
    log "installing ${missing[*]} from Debian packages"
    apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq cmake g++ make git >&2
  else
    log "missing ${missing[*]}: install cmake, g++, make and git"
    exit 1
  fi
fi

mkdir -p "$cache"
work="$(mktemp -d "$cache/build-XXXXXX")"
trap 'rm -rf "$work"' EXIT
started=$SECONDS

log "fetching node-llama-cpp@$version and @node-llama-cpp/linux-x64@$version from the npm registry"
(cd "$work" && npm pack --silent "node-llama-cpp@$version" "@node-llama-cpp/linux-x64@$version" > /dev/null)
mkdir -p "$work/source" "$work/prebuilt"
tar xzf "$work/node-llama-cpp-$version.tgz" -C "$work/source"
tar xzf "$work/node-llama-cpp-linux-x64-$version.tgz" -C "$work/prebuilt"
git clone --quiet "$work/source/package/llama/gitRelease.bundle" "$work/llama.cpp" 2> /dev/null
libs="$work/prebuilt/package/bins/linux-x64"

log "compiling the server (tools/server, tools/mtmd, vendor) against the prebuilt libraries"
cmake -S "$here" -B "$work/build" -DLLAMA_SRC="$work/llama.cpp" -DLLAMA_LIBS="$libs" -DCMAKE_BUILD_TYPE=Release > "$work/cmake.log" 2>&1 \
  || { cat "$work/cmake.log" >&2; exit 1; }
cmake --build "$work/build" --target llama-server -j"$(nproc)" > "$work/build.log" 2>&1 \
  || { tail -50 "$work/build.log" >&2; exit 1; }

rm -rf "$out.partial"
mkdir -p "$out.partial/bin"
cp "$work/build/llama-server" "$libs"/*.so "$out.partial/bin/"
cp "$work/llama.cpp/LICENSE" "$out.partial/LICENSE-llama.cpp"
node "$here/make-model.mjs" "$work/llama.cpp/models/ggml-vocab-qwen2.gguf" \
  "$work/llama.cpp/models/templates/Qwen-Qwen2.5-7B-Instruct.jinja" "$out.partial/model.gguf" >&2
"$out.partial/bin/llama-server" --version > /dev/null 2>&1 || { log "the built server does not start"; exit 1; }
echo "$recipe" > "$out.partial/.complete"
rm -rf "$out"
mv "$out.partial" "$out"
log "built in $((SECONDS - started)) s: $out"
echo "$out"
