#!/usr/bin/env bash
# The README's quickstart: runs the expense-approval example from start to finish against a running platform and its
# example worker. Run it from the repository root:
#
#   bash examples/quickstart.sh
#
# or source it (`. examples/quickstart.sh`) to get SOP, TOKEN, wait_for and id_of in your shell and type the steps
# yourself. SOP_HTTP_PORT and SOP_DATA_DIR are read as the platform reads them (defaults 8080 and ./data); SOP and
# TOKEN, when already set, win.

SOP=${SOP:-http://localhost:${SOP_HTTP_PORT:-8080}}
TOKEN=${TOKEN:-${SOP_BOOTSTRAP_TOKEN:-$(cat "${SOP_DATA_DIR:-data}/bootstrap-token" 2>/dev/null)}}
export SOP TOKEN

# Polls an API URL until its answer matches an extended regular expression, then prints the answer. Steps are resolved
# asynchronously (by the agent, a worker, a third party), so a script waits for the state it needs rather than
# sleeping a guessed time. Gives up after 30 tries half a second apart, printing what it last saw.
wait_for() {
  local url=$1 pattern=$2 seen='' try
  for try in $(seq 30); do
    seen=$(curl -s -H "X-SOP-Token: $TOKEN" "$url")
    if printf '%s' "$seen" | grep -Eq -- "$pattern"; then
      printf '%s\n' "$seen"
      return 0
    fi
    sleep 0.5
  done
  printf 'Gave up after 30 tries (about 15 s) waiting for /%s/ at %s; its last answer was:\n%s\n' "$pattern" "$url" "$seen" >&2
  return 1
}

# The "id" of a JSON answer such as that of /start.
id_of() { sed -E 's/.*"id":"([^"]+)".*/\1/'; }

quickstart() {
  set -euo pipefail
  if [ -z "$TOKEN" ]; then
    echo "No token: set TOKEN, or SOP_DATA_DIR to the platform's data directory (it holds bootstrap-token)." >&2
    return 1
  fi
  local example
  example="$(dirname "${BASH_SOURCE[0]}")/expense-approval.yaml"

  echo '# Register a process and start an instance'
  curl -s -H "X-SOP-Token: $TOKEN" -F "file=@$example" "$SOP/sop/processes/register"; echo
  ID=$(curl -s -H "X-SOP-Token: $TOKEN" -H 'Content-Type: application/json' \
    -d '{"inputs": {"employee": "ada", "amount": 42.5, "category": "meals"}}' \
    "$SOP/sop/expense-approval/start" | id_of)
  echo "Instance $ID"

  echo '# 1. form: a manager approves'
  curl -s -H "X-SOP-Token: $TOKEN" -H 'Content-Type: application/json' \
    -d '{"outputs": {"decision": "approved", "comment": "fine"}}' \
    "$SOP/sop/expense-approval/$ID/steps/review/submit"; echo

  echo '# 2. judgment: the local agent decides, or hands the step to a person with its proposal'
  wait_for "$SOP/sop/expense-approval/$ID/steps" '"id":"policy-check"[^{}]*("escalated":true|"state":"completed")'
  echo '#    a person decides (422 invalid_transition if the agent already did)'
  curl -s -H "X-SOP-Token: $TOKEN" -H 'Content-Type: application/json' \
    -d '{"outputs": {"compliant": "yes"}}' \
    "$SOP/sop/expense-approval/$ID/steps/policy-check/submit"; echo

  echo '# 3. automated: the example worker pays the claim'
  wait_for "$SOP/sop/expense-approval/$ID/steps" '"id":"pay"[^{}]*"state":"completed"'

  echo '# 4. webhook: the bank calls the step'"'"'s one-shot callback URL (no token: the URL is the credential)'
  CALLBACK=$(wait_for "$SOP/sop/expense-approval/$ID/steps" '"callback_url":"[^"]+"' \
    | grep -o '"callback_url":"[^"]*"' | cut -d'"' -f4)
  curl -s -H 'Content-Type: application/json' -d '{"status": "settled"}' "$CALLBACK"; echo

  echo '# The result'
  wait_for "$SOP/sop/expense-approval/$ID" '"version":"[^"]*","state":"completed"'

  parallel_quickstart
}

# Engine 0.2: account opening, whose account is created (by the example worker) while a provider and a person check
# the customer's identity; the officer's step after the block starts once both branches are done.
parallel_quickstart() {
  local example
  example="$(dirname "${BASH_SOURCE[0]}")/account-opening.yaml"

  echo '# Parallel branches: register account-opening and start an instance'
  curl -s -H "X-SOP-Token: $TOKEN" -F "file=@$example" "$SOP/sop/processes/register"; echo
  ID=$(curl -s -H "X-SOP-Token: $TOKEN" -H 'Content-Type: application/json' \
    -d '{"inputs": {"email": "ada@example.com", "country": "NL"}}' \
    "$SOP/sop/account-opening/start" | id_of)
  echo "Instance $ID"

  echo '# branch "identity": the provider calls back, then compliance reviews'
  CALLBACK=$(wait_for "$SOP/sop/account-opening/$ID/steps" '"callback_url":"[^"]+"' \
    | grep -o '"callback_url":"[^"]*"' | cut -d'"' -f4)
  curl -s -H 'Content-Type: application/json' -d '{"status": "verified"}' "$CALLBACK"; echo
  wait_for "$SOP/sop/account-opening/$ID/steps" '"id":"identity-review"[^{}]*"state":"active"' > /dev/null
  curl -s -H "X-SOP-Token: $TOKEN" -H 'Content-Type: application/json' \
    -d '{"outputs": {"approved": "yes"}}' \
    "$SOP/sop/account-opening/$ID/steps/identity-review/submit"; echo

  echo '# branch "account": the example worker creates the account; then both branches have joined'
  wait_for "$SOP/sop/account-opening/$ID/steps" '"id":"activate"[^{}]*"state":"active"' > /dev/null
  curl -s -H "X-SOP-Token: $TOKEN" -H 'Content-Type: application/json' \
    -d '{"outputs": {"active": true}}' \
    "$SOP/sop/account-opening/$ID/steps/activate/submit"; echo

  echo '# The result'
  wait_for "$SOP/sop/account-opening/$ID" '"version":"[^"]*","state":"completed"'
}

# Run when executed, not when sourced.
if [ "${BASH_SOURCE[0]:-}" = "$0" ]; then
  quickstart
fi
