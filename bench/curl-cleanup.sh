#!/usr/bin/env bash
# What users write today to clean up: list the tokens, pick the old active ones with
# jq, and revoke them one by one in a loop. The benchmark times this against the
# action's cleanup. Reads PLATFORM_AUTH_URL, PLATFORM_API_URL, CLIENT_ID,
# CLIENT_SECRET and OLDER_THAN_DAYS from the environment. Needs GNU date.
set -euo pipefail

access_token=$(
  curl -sS --fail -X POST "$PLATFORM_AUTH_URL/idp/identity/resources/auth/v2/api-token" \
    -H 'Content-Type: application/json' \
    -d "{\"clientId\":\"$CLIENT_ID\",\"secret\":\"$CLIENT_SECRET\"}" |
    jq -r .access_token
)

cutoff=$(date -u -d "-$OLDER_THAN_DAYS days" +%Y-%m-%dT%H:%M:%S.000Z)
ids=$(
  curl -sS --fail "$PLATFORM_API_URL/api/tokens" -H "Authorization: Bearer $access_token" |
    jq -r --arg cutoff "$cutoff" '.[] | select(.state == "active" and .createdAt < $cutoff) | .id'
)

for id in $ids; do
  curl -sS --fail -X POST "$PLATFORM_API_URL/api/tokens/$id/revoke?tokenId=$id" \
    -H "Authorization: Bearer $access_token" > /dev/null
done
