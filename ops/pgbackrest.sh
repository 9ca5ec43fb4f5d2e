#!/usr/bin/env bash
# Backups of a PostgreSQL install of ecofond with pgBackRest (Debian's package), and of the files of
# ECOFOND_DATA_DIR beside them (docs/operations.md). Run as the OS user that owns the cluster
# (postgres). Every setting is an environment variable; the defaults suit Debian's cluster.
#
#   ops/pgbackrest.sh configure   write pgbackrest.conf, turn WAL archiving on (ALTER SYSTEM; restart after)
#   ops/pgbackrest.sh init        create the stanza and check that WAL reaches the repository
#   ops/pgbackrest.sh full        a full backup, then the files
#   ops/pgbackrest.sh incr        an incremental backup (since the last backup), then the files
#   ops/pgbackrest.sh files       the files of ECOFOND_DATA_DIR alone (run it every few minutes)
#   ops/pgbackrest.sh restore TARGET_TIME NEW_PGDATA [NEW_FILES_DIR]
#                                 the cluster as it stood at TARGET_TIME into an empty directory
#                                 (promoted once there), and the files into NEW_FILES_DIR
#   ops/pgbackrest.sh check       switch to a new WAL segment and wait until it is in the repository
#   ops/pgbackrest.sh info        the backups and the WAL the repository holds
#
# Settings:
#   PGDATA                               the cluster's data directory (/var/lib/postgresql/15/main)
#   PGPORT, PGHOST                       where it listens (5432, /var/run/postgresql)
#   PGUSER                               the superuser (postgres)
#   PG_BIN                               PostgreSQL's programs (/usr/lib/postgresql/15/bin)
#   ECOFOND_BACKUP_STANZA                the stanza's name (ecofond)
#   ECOFOND_BACKUP_REPO                  the repository (/var/lib/pgbackrest); put it on another disk or mount
#   ECOFOND_BACKUP_CONF                  the configuration written and read (/etc/pgbackrest/pgbackrest.conf)
#   ECOFOND_BACKUP_RETENTION_FULL        full backups kept, with their incrementals and WAL (2)
#   ECOFOND_BACKUP_RETENTION_DIFF        differential backups kept (unset: pgBackRest's default)
#   ECOFOND_BACKUP_COMPRESS              compression of the repository: lz4, zst, gz, none (lz4)
#   ECOFOND_BACKUP_PROCESSES             parallel processes of a backup or restore (1)
#   ECOFOND_BACKUP_LOG_DIR               pgBackRest's log files (/var/log/pgbackrest)
#   ECOFOND_DATA_DIR                     the application's files (uploads, issued documents, job files)
set -euo pipefail

PGDATA="${PGDATA:-/var/lib/postgresql/15/main}"
PGPORT="${PGPORT:-5432}"
PGHOST="${PGHOST:-/var/run/postgresql}"
PGUSER="${PGUSER:-postgres}"
PG_BIN="${PG_BIN:-/usr/lib/postgresql/15/bin}"
STANZA="${ECOFOND_BACKUP_STANZA:-ecofond}"
REPO="${ECOFOND_BACKUP_REPO:-/var/lib/pgbackrest}"
CONF="${ECOFOND_BACKUP_CONF:-/etc/pgbackrest/pgbackrest.conf}"
RETENTION_FULL="${ECOFOND_BACKUP_RETENTION_FULL:-2}"
RETENTION_DIFF="${ECOFOND_BACKUP_RETENTION_DIFF:-}"
COMPRESS="${ECOFOND_BACKUP_COMPRESS:-lz4}"
PROCESSES="${ECOFOND_BACKUP_PROCESSES:-1}"
LOG_DIR="${ECOFOND_BACKUP_LOG_DIR:-/var/log/pgbackrest}"
export PGPORT PGHOST PGUSER

pgbr() { pgbackrest --config="$CONF" --stanza="$STANZA" "$@"; }
sql() { psql -X -q -v ON_ERROR_STOP=1 -d postgres -c "$1"; }

configure() {
  mkdir -p "$(dirname "$CONF")" "$REPO" "$LOG_DIR"
  local socket_dir="$PGHOST"
  [[ "$socket_dir" == /* ]] || socket_dir=""
  {
    echo "# written by ops/pgbackrest.sh configure — change the variables and run it again"
    echo "[global]"
    echo "repo1-path=$REPO"
    echo "repo1-retention-full=$RETENTION_FULL"
    [ -n "$RETENTION_DIFF" ] && echo "repo1-retention-diff=$RETENTION_DIFF"
    echo "compress-type=$COMPRESS"
    echo "process-max=$PROCESSES"
    echo "start-fast=y"
    echo "log-path=$LOG_DIR"
    echo "lock-path=$REPO/lock"
    echo "spool-path=$REPO/spool"
    echo "log-level-console=warn"
    echo "log-level-file=info"
    echo
    echo "[$STANZA]"
    echo "pg1-path=$PGDATA"
    echo "pg1-port=$PGPORT"
    [ -n "$socket_dir" ] && echo "pg1-socket-path=$socket_dir"
    echo "pg1-user=$PGUSER"
  } >"$CONF"
  # every finished WAL segment goes to the repository; a segment at least every minute when writes are few
  sql "ALTER SYSTEM SET wal_level = 'replica'"
  sql "ALTER SYSTEM SET archive_mode = 'on'"
  sql "ALTER SYSTEM SET archive_command = 'pgbackrest --config=$CONF --stanza=$STANZA archive-push %p'"
  sql "ALTER SYSTEM SET archive_timeout = '60s'"
  sql "ALTER SYSTEM SET max_wal_senders = 3"
  echo "configured $CONF; restart PostgreSQL (archive_mode), then: $0 init" >&2
}

# The files of ECOFOND_DATA_DIR: uploads are named by their content and never change, issued
# documents and job files are written once, so the copy only adds what is new and deletes nothing —
# the copy holds every file any restorable moment's rows can name.
files() {
  [ -n "${ECOFOND_DATA_DIR:-}" ] || { echo "ECOFOND_DATA_DIR is not set: no files backed up" >&2; return 0; }
  mkdir -p "$REPO/files"
  [ -d "$ECOFOND_DATA_DIR" ] || return 0
  # the embedded database's directory is not the server's data: left out
  rsync -a --ignore-existing --exclude=/pgdata "$ECOFOND_DATA_DIR"/ "$REPO/files"/
}

cmd="${1:-}"
shift || true
case "$cmd" in
  configure) configure ;;
  init) pgbr stanza-create && pgbr check ;;
  check) pgbr check ;;
  full|incr|diff) pgbr backup --type="$cmd" && files ;;
  files) files ;;
  info) pgbr info ;;
  restore)
    target="${1:?the moment to restore to, e.g. "2026-12-02 10:15:00+05"}"
    dest="${2:?an empty directory for the restored cluster}"
    files_to="${3:-}"
    mkdir -p "$dest"
    [ -z "$(ls -A "$dest")" ] || { echo "$dest is not empty" >&2; exit 1; }
    chmod 700 "$dest"
    # the cluster up to the last commit before the moment, then promoted: a server of its own
    # (its WAL is not archived unless ECOFOND_RESTORE_ARCHIVE=preserve: a drill or an inspection
    # must not write into the repository of the cluster still running)
    pgbr restore --pg1-path="$dest" --type=time --target="$target" --target-action=promote \
      --archive-mode="${ECOFOND_RESTORE_ARCHIVE:-off}"
    if [ -n "$files_to" ]; then
      mkdir -p "$files_to"
      [ -d "$REPO/files" ] && rsync -a "$REPO/files"/ "$files_to"/
    fi
    echo "restored to $target in $dest; start it with: $PG_BIN/pg_ctl -D $dest -o '-p <port>' start" >&2
    ;;
  *) sed -n '2,30p' "$0" >&2; exit 2 ;;
esac
