-- idemlab ledger schema: accounts, the transfer flow, a double-entry journal, and the guard tables
-- the strategies use. Embedded into the binary at build time; this file is the only copy.
-- Money is always an integer number of minor units (cents). Times are milliseconds on the
-- clock of whoever wrote the row: the wall clock for one-attempt commands, the virtual clock in
-- a simulation.

PRAGMA application_id = 1768187245;  -- 0x6964656D, "idem": marks a file as an idemlab ledger
PRAGMA user_version = 8;             -- schema version; idemlab refuses files newer than it knows,
                                     -- and upgrades older ones (db/migrate.cpp)

-- Accounts and their balances.
CREATE TABLE account (
  name                  TEXT PRIMARY KEY                  -- account name, e.g. "alice"
                        CHECK (length(name) BETWEEN 1 AND 32),
  opening_balance_minor INTEGER NOT NULL                  -- balance when the ledger was created
                        CHECK (opening_balance_minor >= 0),
  balance_minor         INTEGER NOT NULL                  -- current balance; never below zero
                        CHECK (balance_minor >= 0)
) STRICT, WITHOUT ROWID;

-- A payer's per-transfer limit. `idemlab limit --set` and `idemlab http PUT` write it absolutely
-- (naturally idempotent); `idemlab limit --raise` adds to it (not idempotent); a transfer above it
-- is refused (over_limit) before any guard runs. No row: no limit.
CREATE TABLE account_limit (
  account       TEXT PRIMARY KEY REFERENCES account (name),
  limit_minor   INTEGER NOT NULL CHECK (limit_minor > 0),
  updated_at_ms INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

-- One row per transfer request a strategy has recorded. The row also stores the answer, so that
-- a repeat of the request gets the first answer back. A request is identified by (source,
-- biz_seq): every source numbers its own requests. Its status is checked as a range: SQLite
-- checks an IN list of more than two values through a temporary index built for every row.
CREATE TABLE transfer_flow (
  id            INTEGER PRIMARY KEY,                      -- row id; RETURNING hands it back
  source        TEXT NOT NULL DEFAULT 'api',              -- who sent the request
  biz_seq       TEXT                                      -- the request's id within its source;
                CHECK (biz_seq IS NULL                    -- NULL only when a request came without
                       OR length(biz_seq) BETWEEN 1 AND 64), -- one (--pitfall=missing-key): a NULL
                                                          -- conflicts with nothing in an index
  from_account  TEXT NOT NULL,                            -- payer (the payload is kept to
  to_account    TEXT NOT NULL,                            -- payee  detect a mismatched repeat)
  amount_minor  INTEGER NOT NULL CHECK (amount_minor > 0),
  status        INTEGER NOT NULL                          -- 0 pending, 1 processing,
                CHECK (status BETWEEN 0 AND 3),           -- 2 succeeded, 3 failed
  version       INTEGER NOT NULL DEFAULT 0,               -- optimistic-lock version
  unique_key    INTEGER NOT NULL                          -- 1: covered by the unique index on
                CHECK (unique_key IN (0, 1)),             -- biz_seq; 0: the strategy relies on
                                                          -- another guard (token, lock, dedup
                                                          -- row) or is a --pitfall without it
  strategy      TEXT NOT NULL,                            -- strategy that wrote the row
  outcome       TEXT,                                     -- stored answer: applied | rejected
  reason        TEXT,                                     -- why it was rejected, else NULL
  created_at_ms INTEGER NOT NULL,
  updated_at_ms INTEGER NOT NULL
) STRICT;
-- The unique constraint the references rely on, for the rows that ask for it.
CREATE UNIQUE INDEX transfer_flow_key_unique ON transfer_flow (source, biz_seq)
  WHERE unique_key = 1;
CREATE INDEX transfer_flow_key ON transfer_flow (source, biz_seq);

-- Double-entry journal: every applied transfer writes one debit (money leaves the payer) and one
-- credit (money reaches the payee), both tagged with the request's source and biz_seq (even when
-- the guards saw no key). The journal is the source of truth for how many times a request moved
-- money.
CREATE TABLE journal (
  id            INTEGER PRIMARY KEY,
  source        TEXT NOT NULL DEFAULT 'api',
  biz_seq       TEXT NOT NULL,
  account       TEXT NOT NULL REFERENCES account (name),
  side          TEXT NOT NULL CHECK (side IN ('debit', 'credit')),
  amount_minor  INTEGER NOT NULL CHECK (amount_minor > 0),
  created_at_ms INTEGER NOT NULL
) STRICT;
CREATE INDEX journal_key ON journal (source, biz_seq);

-- dedup-table strategy: a row per request, kept apart from the business tables. Its key is
-- "source:biz_seq", as 003 builds it from serial number and source type.
CREATE TABLE dedup (
  dedup_key     TEXT PRIMARY KEY,                         -- the unique key that blocks repeats
  source        TEXT NOT NULL,                            -- who sent the request
  biz_seq       TEXT NOT NULL,
  strategy      TEXT NOT NULL,                            -- the strategy that wrote the row
  payload       TEXT NOT NULL,                            -- "from>to:amount", to spot mismatches
  created_at_ms INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
CREATE INDEX dedup_request ON dedup (source, biz_seq);

-- token strategy: one-time tokens handed out by `idemlab token issue`.
CREATE TABLE token (
  token           TEXT PRIMARY KEY,
  issued_at_ms    INTEGER NOT NULL,
  expires_at_ms   INTEGER NOT NULL,
  used_at_ms      INTEGER,                                -- NULL until consumed
  used_by_biz_seq TEXT,                                   -- the request that consumed it
  used_by_source  TEXT
) STRICT, WITHOUT ROWID;

-- lock-table strategy: a lock with an expiry, the columns ShedLock uses.
CREATE TABLE lock (
  name          TEXT PRIMARY KEY,                         -- "transfer:<source>:<biz_seq>"
  lock_until_ms INTEGER NOT NULL,                         -- the lock is free from this time on
  locked_at_ms  INTEGER NOT NULL,
  locked_by     TEXT NOT NULL                             -- owner that took it
) STRICT, WITHOUT ROWID;

-- lock-table --fence: the highest fencing token the ledger has seen for each lock, written in the
-- money's own transaction; a holder whose token is not higher is refused (a stale holder).
CREATE TABLE fence (
  name       TEXT PRIMARY KEY,                            -- the lock's name
  fence      INTEGER NOT NULL,                            -- the grant's number (czxid, INCR)
  owner      TEXT NOT NULL,                               -- the holder that wrote it
  fenced_at_ms INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

-- Every attempt a server answered (a lost request never reaches it; a crash leaves no row).
CREATE TABLE attempt (
  id        INTEGER PRIMARY KEY,
  source    TEXT NOT NULL DEFAULT 'api',
  biz_seq   TEXT NOT NULL,
  strategy  TEXT NOT NULL,
  pitfall   TEXT,                                         -- the pitfall it ran with, else NULL
  outcome   TEXT NOT NULL,                                -- the answer's outcome name
  reason    TEXT,
  replayed  INTEGER NOT NULL CHECK (replayed IN (0, 1)),
  fault     TEXT,                                         -- the injected fault, if any
  at_ms     INTEGER NOT NULL,
  isolation TEXT,                                         -- on a server, the isolation level it
                                                          -- ran at ("read-committed"); else NULL
  guard_store TEXT,                                       -- where its tokens or locks lived: a
                                                          -- Redis URL (no password); NULL: here
  node      TEXT                                          -- on a Galera cluster, the node that
                                                          -- served it ("node2"); else NULL
) STRICT;
CREATE INDEX attempt_key ON attempt (source, biz_seq);

-- Every message `idemlab consume` took from a queue, written before the consumer acts on it (acks
-- it on receipt, or runs the attempt). The audit reads it to name what a queue did to a request:
-- a request acked on receipt that never got an answer was lost; a request that moved money under
-- two message ids was keyed by the message, not the request.
CREATE TABLE delivery (
  id          INTEGER PRIMARY KEY,
  queue       TEXT NOT NULL,
  message_id  TEXT NOT NULL,                              -- the broker's message id ('' if none)
  redelivered INTEGER NOT NULL CHECK (redelivered IN (0, 1)),
  source      TEXT NOT NULL,                              -- the request the message carries
  biz_seq     TEXT NOT NULL,
  keyed_by    TEXT NOT NULL,                              -- the biz_seq the strategy was given:
                                                          -- the request's, or the message id
  ack         TEXT NOT NULL                               -- when the consumer acks it
              CHECK (ack IN ('after-commit', 'on-receipt')),
  at_ms       INTEGER NOT NULL
) STRICT;
CREATE INDEX delivery_request ON delivery (source, biz_seq);
