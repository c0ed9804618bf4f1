#!/bin/sh
# Used by test/integration/explore/rclone-bisync.test.ts: explore --client "RCLONE_STATE=DIR sh rclone-bisync.sh"
# One rclone bisync pass of CSP_SYNC_DIR against the mock's /dav (explore's client contract). The state
# folder RCLONE_STATE holds bisync's listings and the obscured password (rclone obscure is salted: a new one
# each call would name another remote, and bisync would not find its listings).
W="${RCLONE_STATE:?}"
mkdir -p "$W"
[ -s "$W/pass" ] || rclone obscure "$CSP_MOCK_PASSWORD" > "$W/pass"
export RCLONE_CONFIG_MOCK_TYPE=webdav RCLONE_CONFIG_MOCK_URL="$CSP_MOCK_URL/dav" RCLONE_CONFIG_MOCK_VENDOR=owncloud
export RCLONE_CONFIG_MOCK_USER="$CSP_MOCK_USER" RCLONE_CONFIG_MOCK_PASS="$(cat "$W/pass")"
set -- "$CSP_SYNC_DIR" mock: --workdir "$W" --retries 1 --low-level-retries 1 --contimeout 5s --timeout 10s -q
if ls "$W"/*.lst >/dev/null 2>&1; then exec rclone bisync "$@"; fi
exec rclone bisync "$@" --resync
