#!/usr/bin/env bash
# The platform docs' recipe for creating a gateway token: exchange the API client
# credentials for an access token, then create the token. The benchmark times this
# against the action doing the same two calls. Reads PLATFORM_AUTH_URL,
# PLATFORM_API_URL, CLIENT_ID, CLIENT_SECRET and TOKEN_NAME from the environment.
set -euo pipefail

access_token=$(
  curl -sS --fail -X POST "$PLATFORM_AUTH_URL/idp/identity/resources/auth/v2/api-token" \
    -H 'Content-Type: application/json' \
    -d "{\"clientId\":\"$CLIENT_ID\",\"secret\":\"$CLIENT_SECRET\"}" |
    jq -r .access_token
)

curl -sS --fail -X POST "$PLATFORM_API_URL/api/tokens" \
  -H "Authorization: Bearer $access_token" \
  -H 'Content-Type: application/json' \
  -d "{\"name\":\"$TOKEN_NAME\"}" |
  jq -r .tokenValue > /dev/null
