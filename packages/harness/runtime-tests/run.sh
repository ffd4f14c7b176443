#!/usr/bin/env bash
# The cross-runtime suite (runtimes/): the built harness in Node 20 (vitest's), Node 22 and 24, Bun,
# Deno and workerd — the same scenarios everywhere, every continuation resumed in every runtime,
# the file-system scenarios, and the CLI and worker bridge bins under Bun and Deno.
# Needs: the root install (vitest, workerd, the broker) and the built packages (npm run build).
# Installs runtimes/ with `npm ci` (the pinned runtimes, about 200 MB; skipped while its
# node_modules was installed from the same package-lock.json), then runs vitest.
# Prints the path of vitest's JSON report; exits with vitest's status.
set -uo pipefail
cd "$(dirname "$0")"
root="$(cd ../../.. && pwd)"

if [ ! -f ../dist/index.js ] || [ ! -f ../../vfs/dist/index.js ]; then
  echo "runtimes: no built packages (run npm run build first)"
  exit 1
fi
if [ ! -x "$root/node_modules/.bin/vitest" ]; then
  echo "runtimes: vitest is missing; install the repository root first (npm ci)"
  exit 1
fi

lock_sum="$(sha256sum runtimes/package-lock.json | cut -d' ' -f1)"
stamp=runtimes/node_modules/.installed-from-lock
if [ "$(cat "$stamp" 2>/dev/null)" = "$lock_sum" ]; then
  echo "runtimes: pinned runtimes already installed from this package-lock.json"
else
  if ! (cd runtimes && npm ci --no-audit --no-fund); then
    echo "runtimes: npm ci failed"
    exit 1
  fi
  echo "$lock_sum" > "$stamp"
fi

rm -f runtimes/.vitest-runtimes-results.json
"$root/node_modules/.bin/vitest" run --config runtimes/vitest.config.ts
status=$?
echo "runtimes: vitest JSON report: $(pwd)/runtimes/.vitest-runtimes-results.json"
exit "$status"
