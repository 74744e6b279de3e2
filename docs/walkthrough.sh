#!/usr/bin/env bash
# The walkthrough with curl (docs/getting-started.md, "Walkthrough with curl", shows this file's
# body below the marker line; test/docs/readme-walkthrough.test.ts runs this file and checks the
# two are the same). Run: KEY=$(cat .render-farm/demo-api-key) bash docs/walkthrough.sh
# --- docs block ---
[ -n "${PS1:-}" ] || set -euo pipefail   # a script stops at the first failed step
BASE=${BASE:-http://127.0.0.1:8080}
KEY=${KEY:?set KEY to the API key that render-farm up printed}
# api METHOD PATH [JSON]: the response body; on an HTTP error, the server's error on stderr and a failure
api() {
  local out body=()
  if [ $# -ge 3 ]; then body=(-H 'Content-Type: application/json' -d "$3"); fi
  out=$(curl -sS --fail-with-body -X "$1" "$BASE$2" -H "Authorization: Bearer ${TOKEN:-$KEY}" "${body[@]}") ||
    { echo "$1 $2 failed: $out" >&2; return 1; }
  printf '%s\n' "$out"
}
# field NAME: one field of the JSON on stdin (fails, showing the JSON, when it has none)
field() {
  node -e 'const t = require("fs").readFileSync(0, "utf8"); let v; try { v = JSON.parse(t)[process.argv[1]] } catch {}
    if (v == null) { console.error(`no ${process.argv[1]} in: ${t}`); process.exit(1) } process.stdout.write(String(v))' "$1"
}

# 1. your server mints a short-lived session token with the API key (the browser never sees the key)
MINTED=$(api POST /auth/render-session '{"scopes":["data:read","render:submit","render:status"],"ttl_seconds":300}')
TOKEN=$(printf '%s' "$MINTED" | field session_token)

# 2. list parts, fetch a saved build
api GET "/available-parts?category=GPU&limit=3"
api GET /build/DEMO-GLASS

# 3. submit a render of the saved build (its fan/radiator/RGB state is applied), then poll until it ends
SUBMITTED=$(api POST /render-by-share-code '{"shareCode":"DEMO-GLASS","format":"sprite","width":256,"height":256,"profile":"fast"}')
JOB=$(printf '%s' "$SUBMITTED" | field job_id)
while true; do
  RESULT=$(api GET "/render-build/$JOB")
  STATUS=$(printf '%s' "$RESULT" | field status)
  echo "$STATUS"
  case "$STATUS" in queued|processing) sleep 1 ;; *) break ;; esac
done
echo "$RESULT"
# processing … completed, then (this run, the hashes shortened):
# {"job_id":"9363df59-9514-477f-a6c3-663485db9c9d","status":"completed","job_type":"render",
#  "url":"http://127.0.0.1:8080/artifacts/renders/b0/b04af885…/sprite.webp","video_url":null,
#  "sprite_url":"http://127.0.0.1:8080/artifacts/renders/b0/b04af885…/sprite.webp",
#  "screenshot_url":"http://127.0.0.1:8080/artifacts/renders/b0/b04af885…/hero.webp",
#  "end_time":"2026-11-23T05:37:16.209Z","progress":1,"created_at":"2026-11-23T05:37:11.575Z",
#  "sprite":{"rows":6,"frames":72,"columns":12,"frame_width":256,"frame_height":256},"share_code":"DEMO-GLASS"}
# (instead of polling: `render-farm jobs watch $JOB`, or the event stream:
#  curl -N "$BASE/render-build/$JOB/events?access_token=$TOKEN")

# 4. open the result (public, content-addressed URL with Range and ETag support)
curl -sS --fail-with-body -o sprite.webp "$(printf '%s' "$RESULT" | field url)"
