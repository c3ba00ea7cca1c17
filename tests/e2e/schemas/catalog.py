"""Reads a ledger's shape from each engine's own catalog and compares the three.

usage: catalog.py SQLITE_FILE POSTGRES_URL MARIADB_SOCKET MARIADB_DATABASE
Exit 0 when SQLite, PostgreSQL and MariaDB define the same tables, columns (order, NOT NULL,
default), primary keys, unique keys (partial or not), indexes, foreign keys and number of CHECK
constraints per table; otherwise prints each difference and exits 1.
"""
import re
import sqlite3
import subprocess
import sys

SERVER_ONLY_TABLES = {"idemlab_schema"}  # SQLite keeps these two numbers in PRAGMAs


def table(columns=None):
    return {"columns": columns or [], "primary_key": [], "unique": set(), "indexes": set(),
            "foreign_keys": set(), "checks": 0}


def default_text(value):
    """'api', 'api'::text and api read the same; so do 0 and '0'."""
    if value is None or value == "NULL":
        return None
    value = re.sub(r"::[a-z ]+$", "", str(value))
    return value.strip("'")


def read_sqlite(path):
    db = sqlite3.connect(path)
    model = {}
    for name, sql in db.execute("SELECT name, sql FROM sqlite_schema WHERE type = 'table'"):
        t = model[name] = table()
        info = db.execute(f"PRAGMA table_info({name})").fetchall()
        t["primary_key"] = [r[1] for r in sorted(info, key=lambda r: r[5]) if r[5] > 0]
        t["columns"] = [(r[1], bool(r[3]) or r[5] > 0, default_text(r[4])) for r in info]
        t["checks"] = len(re.findall(r"\bCHECK\s*\(", sql))
        for _, index, unique, origin, partial in db.execute(f"PRAGMA index_list({name})"):
            if origin == "pk":
                continue
            columns = tuple(r[2] for r in db.execute(f"PRAGMA index_info({index})"))
            (t["unique"] if unique else t["indexes"]).add((columns, bool(partial)))
        for row in db.execute(f"PRAGMA foreign_key_list({name})"):
            t["foreign_keys"].add((row[3], row[2], row[4]))
    return model


def rows(command, sql):
    out = subprocess.run(command + [sql], capture_output=True, text=True, check=True).stdout
    return [line.split("\t") for line in out.splitlines() if line]


def read_postgres(url):
    q = lambda sql: rows(["psql", "-AtX", "-F", "\t", url, "-c"], sql)
    model = {}
    for name, column, nullable, default, identity in q(
            "SELECT table_name, column_name, is_nullable, coalesce(column_default, 'NULL'), "
            "is_identity FROM information_schema.columns WHERE table_schema = 'public' "
            "ORDER BY table_name, ordinal_position"):
        model.setdefault(name, table())["columns"].append(
            (column, nullable == "NO", default_text(default)))
    for name, column in q(
            "SELECT k.table_name, k.column_name FROM information_schema.table_constraints c "
            "JOIN information_schema.key_column_usage k USING (constraint_schema, constraint_name) "
            "WHERE c.constraint_type = 'PRIMARY KEY' AND c.table_schema = 'public' "
            "ORDER BY k.table_name, k.ordinal_position"):
        model[name]["primary_key"].append(column)
    for name, definition in q("SELECT tablename, indexdef FROM pg_indexes "
                              "WHERE schemaname = 'public' AND indexname NOT LIKE '%_pkey'"):
        columns = tuple(c.strip() for c in re.search(r"\(([^)]*)\)", definition)[1].split(","))
        kind = "unique" if definition.startswith("CREATE UNIQUE") else "indexes"
        model[name][kind].add((columns, " WHERE " in definition))
    for name, column, target, target_column in q(
            "SELECT k.table_name, k.column_name, u.table_name, u.column_name "
            "FROM information_schema.referential_constraints r "
            "JOIN information_schema.key_column_usage k USING (constraint_schema, constraint_name) "
            "JOIN information_schema.constraint_column_usage u USING (constraint_schema, constraint_name) "
            "WHERE r.constraint_schema = 'public'"):
        model[name]["foreign_keys"].add((column, target, target_column))
    for name, count in q("SELECT conrelid::regclass::text, count(*) FROM pg_constraint "
                         "WHERE contype = 'c' AND connamespace = 'public'::regnamespace "
                         "GROUP BY 1"):
        model[name]["checks"] = int(count)
    return model


def read_mariadb(socket, database):
    command = ["mariadb", "--no-defaults", "-S", socket, "-u", "idemlab", "-pidemlab", "-N", "-B",
               database, "-e"]
    q = lambda sql: rows(command, sql.replace("DB", f"'{database}'"))
    model, generated = {}, {}
    for name, column, nullable, default, expression in q(
            "SELECT TABLE_NAME, COLUMN_NAME, IS_NULLABLE, coalesce(COLUMN_DEFAULT, 'NULL'), "
            "coalesce(GENERATION_EXPRESSION, '') FROM information_schema.COLUMNS "
            "WHERE TABLE_SCHEMA = DB ORDER BY TABLE_NAME, ORDINAL_POSITION"):
        t = model.setdefault(name, table())
        if expression:  # a key column of the partial unique index: IF(unique_key = 1, col, NULL)
            source = re.search(r"`unique_key` = 1,`?(\w+)`?", expression.replace(" ,", ","))
            generated[(name, column)] = source[1] if source else column
            continue
        t["columns"].append((column, nullable == "NO", default_text(default)))
    indexes = {}
    for name, index, non_unique, column in q(
            "SELECT TABLE_NAME, INDEX_NAME, NON_UNIQUE, COLUMN_NAME FROM "
            "information_schema.STATISTICS WHERE TABLE_SCHEMA = DB "
            "ORDER BY TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX"):
        indexes.setdefault((name, index, non_unique), []).append(column)
    for (name, index, non_unique), columns in indexes.items():
        if index == "PRIMARY":
            model[name]["primary_key"] = columns
            continue
        partial = any((name, c) in generated for c in columns)
        columns = tuple(generated.get((name, c), c) for c in columns)
        model[name]["unique" if non_unique == "0" else "indexes"].add((columns, partial))
    for name, column, target, target_column in q(
            "SELECT TABLE_NAME, COLUMN_NAME, REFERENCED_TABLE_NAME, REFERENCED_COLUMN_NAME FROM "
            "information_schema.KEY_COLUMN_USAGE WHERE TABLE_SCHEMA = DB "
            "AND REFERENCED_TABLE_NAME IS NOT NULL"):
        model[name]["foreign_keys"].add((column, target, target_column))
        # InnoDB indexes every foreign key's column; SQLite and PostgreSQL do not.
        model[name]["indexes"].discard(((column,), False))
    for name, count in q("SELECT TABLE_NAME, count(*) FROM information_schema.CHECK_CONSTRAINTS "
                         "WHERE CONSTRAINT_SCHEMA = DB GROUP BY TABLE_NAME"):
        model[name]["checks"] = int(count)
    return model


def compare(reference, other, engine):
    problems = []
    names = set(other) - SERVER_ONLY_TABLES
    if set(reference) != names:
        problems.append(f"{engine}: tables {sorted(names)} against {sorted(reference)}")
    for name in sorted(set(reference) & names):
        for key in reference[name]:
            if reference[name][key] != other[name][key]:
                problems.append(f"{engine}: {name}.{key}: {other[name][key]} against SQLite's "
                                f"{reference[name][key]}")
    return problems


def main():
    sqlite_file, postgres_url, socket, database = sys.argv[1:5]
    reference = read_sqlite(sqlite_file)
    problems = compare(reference, read_postgres(postgres_url), "PostgreSQL")
    problems += compare(reference, read_mariadb(socket, database), "MariaDB")
    for problem in problems:
        print(problem)
    print(f"{len(reference)} tables compared on three engines: "
          f"{'the same' if not problems else f'{len(problems)} differences'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
