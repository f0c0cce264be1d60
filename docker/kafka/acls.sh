#!/bin/bash
# The ACLs of the teams' workers on the compose broker, created once it is up (kafka-acls-init in docker-compose.yml;
# adding an ACL that exists changes nothing, so a second run is harmless). The platform user is a super user and needs
# none. A team's worker may:
#   - read and describe its team's step topic, sop.steps.automated.<team> (literal: never a prefix or *, which would
#     take in other teams' topics),
#   - read its consumer group (join, commit and fetch its offsets),
#   - write and describe sop.commands, where the SDK writes results and heartbeats: the engines take an unsigned
#     record there only as a worker's result with its result key checked (the platform's own commands are signed), so
#     this grants no more than writing sop.step-results does (never grant a worker a TransactionalId ACL: a transaction
#     it left open on sop.commands would hold the engine's reading of that partition until the broker aborts it),
#   - write and describe sop.step-results (results and heartbeats of workers that do not write sop.commands). Since
#     Kafka 3.0 (KIP-679), Write on a topic is enough for its idempotent producer: no IdempotentWrite on the cluster.
# Anything else, another team's topic included, the broker refuses with an authorization error.
set -euo pipefail

allow() {
  /opt/kafka/bin/kafka-acls.sh --bootstrap-server kafka:9092 --command-config /etc/kafka/secrets/platform.properties --add "$@"
}

# The example worker handles billing.pay, accounts.create and reports.build: the worker of three teams.
allow --allow-principal User:examples --operation Read --operation Describe --topic sop.steps.automated.billing
allow --allow-principal User:examples --operation Read --operation Describe --topic sop.steps.automated.accounts
allow --allow-principal User:examples --operation Read --operation Describe --topic sop.steps.automated.reports
allow --allow-principal User:examples --operation Read --group example-workers
allow --allow-principal User:examples --operation Write --operation Describe --topic sop.commands
allow --allow-principal User:examples --operation Write --operation Describe --topic sop.step-results
