// The pieces of SQL the statement tables share (statements.cpp, postgres_statements.cpp,
// mariadb_statements.cpp): each dialect's text is built from the same columns and keys, so the
// three cannot drift apart.
#pragma once

#define FLOW_COLUMNS                                                                       \
  "source, biz_seq, from_account, to_account, amount_minor, status, version, unique_key, " \
  "strategy, created_at_ms, updated_at_ms"
#define FLOW_VALUES \
  ":source, :biz_seq, :from, :to, :amount, :status, 0, :unique_key, :strategy, :now, :now"
// A request's identity: its source and its key. A NULL key matches nothing, as in an index.
#define FLOW_KEY "source = :source AND biz_seq = :biz_seq"
// The flow row as strategies decode it (strategies/common.h, FlowRow), the oldest first.
#define FLOW_SELECT                                                                      \
  "SELECT id, from_account, to_account, amount_minor, status, version, outcome, reason " \
  "FROM transfer_flow WHERE " FLOW_KEY " ORDER BY id LIMIT 1"
