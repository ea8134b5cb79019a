#!/usr/bin/env bash
# What users write today to clean up: list the tokens, pick the old active ones with
# jq, and revoke them one by one in a loop. The benchmark times this against the
# action's cleanup. Reads PLATFORM_AUTH_URL, PLATFORM_API_URL, CLIENT_ID,
# CLIENT_SECRET and OLDER_THAN_DAYS from the environment. Needs GNU date.
#
# No secret goes on a command line, which any process on the machine can read (ps,
# /proc/<pid>/cmdline): jq reads the client secret from the environment and writes the
# request body to curl's stdin (--data @-); the access token reaches each curl as a header
# read from a file descriptor (-H @<(...)), written by printf, a bash builtin (no process).
set -euo pipefail

access_token=$(
  jq -n --arg clientId "$CLIENT_ID" '{clientId: $clientId, secret: env.CLIENT_SECRET}' |
    curl -sS --fail -X POST "$PLATFORM_AUTH_URL/idp/identity/resources/auth/v2/api-token" \
      -H 'Content-Type: application/json' --data @- |
    jq -r .access_token
)
authorization() { printf 'Authorization: Bearer %s\n' "$access_token"; }

cutoff=$(date -u -d "-$OLDER_THAN_DAYS days" +%Y-%m-%dT%H:%M:%S.000Z)
ids=$(
  curl -sS --fail "$PLATFORM_API_URL/api/tokens" -H @<(authorization) |
    jq -r --arg cutoff "$cutoff" '.[] | select(.state == "active" and .createdAt < $cutoff) | .id'
)

for id in $ids; do
  curl -sS --fail -X POST "$PLATFORM_API_URL/api/tokens/$id/revoke?tokenId=$id" \
    -H @<(authorization) > /dev/null
done
