#!/usr/bin/env python3
"""Writes the hostile SQLite databases the authenticator-database tests
read: each looks like Google Authenticator's, and each tries to make a
reader loop, allocate without end or write.

- hostile_view.sqlite: `accounts` is a view over a recursive query that
  never ends.
- hostile_generated.sqlite: `accounts` has a generated column of a 1 GB
  zeroblob on every row.
- hostile_trigger.sqlite: a trigger would write on any insert, and the
  journal mode is WAL (a reader that opened the file itself would make
  -wal and -shm files beside it).

Run from this folder: python3 make_hostile_databases.py.
"""
import os, sqlite3

def make(name, statements):
    if os.path.exists(name):
        os.remove(name)
    db = sqlite3.connect(name)
    for statement in statements:
        db.execute(statement)
    db.commit()
    db.close()

make("hostile_view.sqlite", [
    "CREATE VIEW accounts AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) "
    "SELECT i AS _id, 'x' AS email, 'JBSWY3DPEHPK3PXP' AS secret, 0 AS counter, 0 AS type, '' AS issuer FROM n",
])
make("hostile_generated.sqlite", [
    "CREATE TABLE accounts (_id INTEGER PRIMARY KEY, email TEXT, "
    "secret BLOB GENERATED ALWAYS AS (zeroblob(1000000000)) VIRTUAL, counter INTEGER, type INTEGER, issuer TEXT)",
    "INSERT INTO accounts (email, counter, type, issuer) VALUES ('a', 0, 0, 'A')",
])
make("hostile_trigger.sqlite", [
    "PRAGMA journal_mode = WAL",
    "CREATE TABLE accounts (_id INTEGER PRIMARY KEY, email TEXT, secret TEXT, counter INTEGER, type INTEGER, issuer TEXT)",
    "CREATE TABLE log (x)",
    "CREATE TRIGGER t AFTER INSERT ON accounts BEGIN INSERT INTO log VALUES (1); END",
    "INSERT INTO accounts (email, secret, counter, type, issuer) VALUES ('a', 'JBSWY3DPEHPK3PXP', 0, 0, 'A')",
])
