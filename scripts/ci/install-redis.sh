#!/usr/bin/env bash
# Makes sure Debian's redis-server is installed and can start, for the Redis stores' tests (which
# start their own throwaway server on a free loopback port, with no persistence, and stop it).
# Installs it with apt-get when missing. Exits non-zero, loudly, when it cannot: nothing is skipped.
set -euo pipefail

if ! command -v redis-server >/dev/null 2>&1; then
  echo "install-redis: redis-server is missing; installing Debian's redis-server"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq redis-server >/dev/null
fi
if ! command -v redis-server >/dev/null 2>&1 || ! command -v redis-cli >/dev/null 2>&1; then
  echo "install-redis: FAILED: redis-server or redis-cli is still missing after apt-get install" >&2
  exit 1
fi

# A start on a private unix socket (no TCP port, no persistence) proves the binary runs here.
dir="$(mktemp -d)"
redis-server --port 0 --unixsocket "$dir/redis.sock" --save '' --appendonly no --dir "$dir" --logfile "$dir/redis.log" &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$dir"' EXIT
for _ in $(seq 1 50); do
  if [ "$(redis-cli -s "$dir/redis.sock" ping 2>/dev/null)" = "PONG" ]; then
    echo "install-redis: $(redis-server --version | cut -d' ' -f1-3) starts"
    exit 0
  fi
  sleep 0.1
done
echo "install-redis: FAILED: redis-server did not answer PING within 5 s:" >&2
cat "$dir/redis.log" >&2 || true
exit 1
