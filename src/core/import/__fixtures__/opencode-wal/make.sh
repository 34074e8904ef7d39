#!/bin/sh
# Rebuilds opencode.db + opencode.db-wal: the 1.2 fixture in WAL mode, checkpointed, then one more
# session written in a single transaction that stays in the log (no checkpoint on close).
# Needs the sqlite3 command. Run from this folder: sh make.sh
set -e
rm -f opencode.db opencode.db-wal opencode.db-shm
sqlite3 opencode.db "PRAGMA journal_mode=WAL;" ".read ../opencode-1.2.sql" >/dev/null
sqlite3 opencode.db ".dbconfig no_ckpt_on_close on" ".read wal-tail.sql" >/dev/null
rm -f opencode.db-shm
