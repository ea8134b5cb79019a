#!/usr/bin/env bash
# The platform docs' recipe for creating a gateway token: exchange the API client
# credentials for an access token, then create the token. The benchmark times this
# against the action doing the same two calls. Reads PLATFORM_AUTH_URL,
# PLATFORM_API_URL, CLIENT_ID, CLIENT_SECRET and TOKEN_NAME from the environment.
#
# No secret goes on a command line, which any process on the machine can read (ps,
# /proc/<pid>/cmdline): jq reads the client secret from the environment and writes the
# request body to curl's stdin (--data @-); the access token reaches curl as a header read
# from a file descriptor (-H @<(...)), written by printf, a bash builtin (no process).
set -euo pipefail

access_token=$(
  jq -n --arg clientId "$CLIENT_ID" '{clientId: $clientId, secret: env.CLIENT_SECRET}' |
    curl -sS --fail -X POST "$PLATFORM_AUTH_URL/idp/identity/resources/auth/v2/api-token" \
      -H 'Content-Type: application/json' --data @- |
    jq -r .access_token
)

jq -n --arg name "$TOKEN_NAME" '{name: $name}' |
  curl -sS --fail -X POST "$PLATFORM_API_URL/api/tokens" \
    -H @<(printf 'Authorization: Bearer %s\n' "$access_token") \
    -H 'Content-Type: application/json' --data @- |
  jq -r .tokenValue > /dev/null
