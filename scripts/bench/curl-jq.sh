#!/bin/sh
# What a user would write without booking: page through the bookings with curl, print every item as
# one JSON line with jq, and follow meta.next_cursor until there is none. Pages of 100.
#   BOOKING_BASE_URL=http://127.0.0.1:4010 BOOKING_API_KEY=sk_… sh curl-jq.sh > bookings.ndjson
set -eu
cursor=""
while :; do
  if [ -n "$cursor" ]; then set -- --data-urlencode "cursor=$cursor"; else set --; fi
  page=$(curl -sSfG -H "Authorization: Bearer $BOOKING_API_KEY" -d limit=100 "$@" "$BOOKING_BASE_URL/api/v1/bookings")
  printf '%s\n' "$page" | jq -c '.data[]'
  cursor=$(printf '%s\n' "$page" | jq -r '.meta.next_cursor // empty')
  [ -n "$cursor" ] || break
done
