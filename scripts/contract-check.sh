#!/usr/bin/env bash
# Starts `render-farm serve` on a throwaway data dir, creates an API key, runs the shared
# black-box contract check (groups that need no job farm), stops the server.
set -euo pipefail
cd "$(dirname "$0")/.."
data=$(mktemp -d)
port=$(node -e 'const s=require("net").createServer().listen(0,()=>{console.log(s.address().port);s.close()})')
pgport=$(node -e 'const s=require("net").createServer().listen(0,()=>{console.log(s.address().port);s.close()})')
export RENDER_FARM_DATA_DIR="$data" RENDER_FARM_PG_PORT="$pgport" LOG_LEVEL=warn
node bin/render-farm serve --port "$port" > "$data/serve.log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$data"' EXIT
for _ in $(seq 1 120); do
  curl -fsS "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break
  kill -0 $pid 2>/dev/null || { cat "$data/serve.log"; exit 1; }
  sleep 0.5
done
key=$(node bin/render-farm keys create --customer contract-check --json | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).key))')
python3 ../shared/contract/check_api.py "http://127.0.0.1:$port" "$key" --groups auth,data,cors,legacy --share-code DEMO-GLASS
