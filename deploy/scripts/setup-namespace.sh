#!/bin/sh
# One-shot (temporalio/admin-tools), run once the server is up: creates the namespace the Ralph workers use and
# registers the search attributes the loop upserts (RALPH_SEARCH_ATTRIBUTES: space-separated Name=Type pairs,
# the same list as SearchAttributes in src/core/constants.ts). Safe to re-run: existing ones are left alone.
set -eu

TEMPORAL_ADDRESS=${TEMPORAL_ADDRESS:-temporal:7233}
NAMESPACE=${NAMESPACE:-default}
RETENTION=${NAMESPACE_RETENTION:-7d}
MAX_ATTEMPTS=${MAX_ATTEMPTS:-60}
SLEEP_SECONDS=${SLEEP_SECONDS:-2}
: "${RALPH_SEARCH_ATTRIBUTES:?RALPH_SEARCH_ATTRIBUTES is required (Name=Type pairs)}"

# Runs "$@" until it succeeds, MAX_ATTEMPTS times at most.
retry() {
  attempt=1
  until "$@"; do
    if [ "$attempt" -ge "$MAX_ATTEMPTS" ]; then
      echo "Giving up after ${attempt} attempts: $*" >&2
      return 1
    fi
    attempt=$((attempt + 1))
    sleep "$SLEEP_SECONDS"
  done
}

echo "Waiting for the Temporal server at ${TEMPORAL_ADDRESS}..."
retry temporal operator cluster health --address "$TEMPORAL_ADDRESS" >/dev/null

ensure_namespace() {
  temporal operator namespace describe --namespace "$NAMESPACE" --address "$TEMPORAL_ADDRESS" >/dev/null 2>&1 ||
    temporal operator namespace create --namespace "$NAMESPACE" --retention "$RETENTION" --address "$TEMPORAL_ADDRESS"
}
echo "Ensuring namespace '${NAMESPACE}'..."
retry ensure_namespace

created=0
for pair in $RALPH_SEARCH_ATTRIBUTES; do
  name=${pair%%=*}
  type=${pair#*=}
  if temporal operator search-attribute list --namespace "$NAMESPACE" --address "$TEMPORAL_ADDRESS" |
    grep -qw -- "$name"; then
    echo "Search attribute ${name} already registered"
    continue
  fi
  echo "Registering search attribute ${name} (${type})..."
  retry temporal operator search-attribute create --namespace "$NAMESPACE" --address "$TEMPORAL_ADDRESS" \
    --name "$name" --type "$type"
  created=$((created + 1))
done

if [ "$created" -gt 0 ]; then
  # Frontend and history hosts pick up new search attributes on their next cache refresh: give them a moment
  # before workers (which depend on this service completing) start upserting them.
  sleep "${SEARCH_ATTRIBUTE_SETTLE_SECONDS:-10}"
fi
echo "Namespace '${NAMESPACE}' is ready with ${created} new search attribute(s)"
