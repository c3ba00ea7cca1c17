-- idemlab ledger schema for MariaDB (10.11, InnoDB): the same tables, columns and constraints
-- as schema.sql, in MariaDB's dialect. tests/e2e/schemas loads it into a throwaway server and
-- checks it against schema.sql, column by column. Read schema.sql for what each column holds;
-- this file says only where MariaDB differs.
--
-- Differences from SQLite:
-- - A key column must have a bounded length: names are VARCHAR of the lengths idemlab allows
--   (an account or source name 32, a biz_seq 64; a dedup key or lock name joins them). Text
--   that is never a key stays TEXT.
-- - MariaDB has no partial index. transfer_flow carries the key twice more, in two generated
--   columns that hold it only when unique_key = 1 and are NULL otherwise; a unique index on them
--   does what SQLite's `WHERE unique_key = 1` does, because NULLs never conflict.
-- - `lock` is a reserved word: this file quotes it (`lock`), and idemlab's sessions run with
--   sql_mode ANSI_QUOTES and PIPES_AS_CONCAT, so its statements write "lock" and || as elsewhere.
-- - SQLite's PRAGMA application_id and user_version have no equivalent: the table
--   idemlab_schema holds both, one row.
-- - Connections use CLIENT_FOUND_ROWS, so that an UPDATE counts the rows it matched, as SQLite
--   and PostgreSQL do.

CREATE TABLE idemlab_schema (
  application_id BIGINT NOT NULL CHECK (application_id = 1768187245),  -- "idem"
  version        INTEGER NOT NULL CHECK (version > 0)
) ENGINE = InnoDB;
INSERT INTO idemlab_schema (application_id, version) VALUES (1768187245, 8);

CREATE TABLE account (
  name                  VARCHAR(32) PRIMARY KEY CHECK (char_length(name) BETWEEN 1 AND 32),
  opening_balance_minor BIGINT NOT NULL CHECK (opening_balance_minor >= 0),
  balance_minor         BIGINT NOT NULL CHECK (balance_minor >= 0)
) ENGINE = InnoDB;

CREATE TABLE account_limit (
  account       VARCHAR(32) PRIMARY KEY,
  limit_minor   BIGINT NOT NULL CHECK (limit_minor > 0),
  updated_at_ms BIGINT NOT NULL,
  FOREIGN KEY (account) REFERENCES account (name)
) ENGINE = InnoDB;

CREATE TABLE transfer_flow (
  id            BIGINT AUTO_INCREMENT PRIMARY KEY,
  source        VARCHAR(32) NOT NULL DEFAULT 'api',
  biz_seq       VARCHAR(64) CHECK (biz_seq IS NULL OR char_length(biz_seq) BETWEEN 1 AND 64),
  from_account  VARCHAR(32) NOT NULL,
  to_account    VARCHAR(32) NOT NULL,
  amount_minor  BIGINT NOT NULL CHECK (amount_minor > 0),
  status        INTEGER NOT NULL CHECK (status IN (0, 1, 2, 3)),
  version       BIGINT NOT NULL DEFAULT 0,
  unique_key    INTEGER NOT NULL CHECK (unique_key IN (0, 1)),
  strategy      VARCHAR(32) NOT NULL,
  outcome       VARCHAR(32),
  reason        TEXT,
  created_at_ms BIGINT NOT NULL,
  updated_at_ms BIGINT NOT NULL,
  -- The partial unique index, as generated columns: the key when unique_key = 1, else NULL.
  unique_source  VARCHAR(32) AS (IF(unique_key = 1, source, NULL)) PERSISTENT,
  unique_biz_seq VARCHAR(64) AS (IF(unique_key = 1, biz_seq, NULL)) PERSISTENT,
  UNIQUE KEY transfer_flow_key_unique (unique_source, unique_biz_seq),
  KEY transfer_flow_key (source, biz_seq)
) ENGINE = InnoDB;

CREATE TABLE journal (
  id            BIGINT AUTO_INCREMENT PRIMARY KEY,
  source        VARCHAR(32) NOT NULL DEFAULT 'api',
  biz_seq       VARCHAR(64) NOT NULL,
  account       VARCHAR(32) NOT NULL,
  side          VARCHAR(6) NOT NULL CHECK (side IN ('debit', 'credit')),
  amount_minor  BIGINT NOT NULL CHECK (amount_minor > 0),
  created_at_ms BIGINT NOT NULL,
  KEY journal_key (source, biz_seq),
  FOREIGN KEY (account) REFERENCES account (name)
) ENGINE = InnoDB;

CREATE TABLE dedup (
  dedup_key     VARCHAR(97) PRIMARY KEY,  -- source ':' biz_seq
  source        VARCHAR(32) NOT NULL,
  biz_seq       VARCHAR(64) NOT NULL,
  strategy      VARCHAR(32) NOT NULL,
  payload       TEXT NOT NULL,
  created_at_ms BIGINT NOT NULL,
  KEY dedup_request (source, biz_seq)
) ENGINE = InnoDB;

CREATE TABLE token (
  token           VARCHAR(255) PRIMARY KEY,  -- issued: 32 hex digits; a client may send more
  issued_at_ms    BIGINT NOT NULL,
  expires_at_ms   BIGINT NOT NULL,
  used_at_ms      BIGINT,
  used_by_biz_seq VARCHAR(64),
  used_by_source  VARCHAR(32)
) ENGINE = InnoDB;

CREATE TABLE `lock` (
  name          VARCHAR(106) PRIMARY KEY,  -- 'transfer:' source ':' biz_seq
  lock_until_ms BIGINT NOT NULL,
  locked_at_ms  BIGINT NOT NULL,
  locked_by     TEXT NOT NULL
) ENGINE = InnoDB;

CREATE TABLE fence (
  name         VARCHAR(106) PRIMARY KEY,  -- the lock's name
  fence        BIGINT NOT NULL,
  owner        TEXT NOT NULL,
  fenced_at_ms BIGINT NOT NULL
) ENGINE = InnoDB;

CREATE TABLE attempt (
  id        BIGINT AUTO_INCREMENT PRIMARY KEY,
  source    VARCHAR(32) NOT NULL DEFAULT 'api',
  biz_seq   VARCHAR(64) NOT NULL,
  strategy  VARCHAR(32) NOT NULL,
  pitfall   VARCHAR(32),
  outcome   VARCHAR(32) NOT NULL,
  reason    TEXT,
  replayed  INTEGER NOT NULL CHECK (replayed IN (0, 1)),
  fault     TEXT,
  at_ms     BIGINT NOT NULL,
  isolation VARCHAR(32),            -- the isolation level it ran at, e.g. 'repeatable-read'
  guard_store TEXT,                 -- where its tokens or locks lived (a Redis URL); NULL: here
  node      TEXT,                   -- on a Galera cluster, the node that served it ('node2')
  KEY attempt_key (source, biz_seq)
) ENGINE = InnoDB;

CREATE TABLE delivery (
  id          BIGINT AUTO_INCREMENT PRIMARY KEY,
  queue       VARCHAR(255) NOT NULL,
  message_id  VARCHAR(255) NOT NULL,
  redelivered INTEGER NOT NULL CHECK (redelivered IN (0, 1)),
  source      VARCHAR(32) NOT NULL,
  biz_seq     VARCHAR(64) NOT NULL,
  keyed_by    VARCHAR(64) NOT NULL, -- the biz_seq the strategy was given
  ack         VARCHAR(16) NOT NULL CHECK (ack IN ('after-commit', 'on-receipt')),
  at_ms       BIGINT NOT NULL,
  KEY delivery_request (source, biz_seq)
) ENGINE = InnoDB;
