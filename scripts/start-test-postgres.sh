#!/usr/bin/env bash
# Start a local PostgreSQL server for the store tests and print its URL.
#
# Installs Debian's postgresql package when it is missing (needs root), starts the
# first cluster (creating one if none exists), creates a role and a database for the
# tests, and prints the SQLAlchemy URL on stdout as its last line, e.g.
#   export COMPANION_TEST_POSTGRES_URL=$(bash scripts/start-test-postgres.sh)
set -euo pipefail

ROLE=${COMPANION_PG_ROLE:-companion}
PASSWORD=${COMPANION_PG_PASSWORD:-companion}
DATABASE=${COMPANION_PG_DATABASE:-companion_test}

log() { echo "start-test-postgres: $*" >&2; }

if ! command -v pg_lsclusters >/dev/null 2>&1; then
    log "installing postgresql"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq postgresql >&2
fi

if [ -z "$(pg_lsclusters -h)" ]; then
    version=$(ls /usr/lib/postgresql | sort -V | tail -n1)
    log "creating cluster $version/main"
    pg_createcluster "$version" main >&2
fi

read -r version cluster port status _ < <(pg_lsclusters -h | head -n1)
if [ "$status" != "online" ]; then
    log "starting cluster $version/$cluster on port $port"
    pg_ctlcluster "$version" "$cluster" start >&2
fi

for _ in $(seq 1 30); do
    if su postgres -c "pg_isready -q -p $port"; then break; fi
    sleep 1
done
su postgres -c "pg_isready -q -p $port" || { log "server on port $port does not answer"; exit 1; }

psql_admin() { su postgres -c "psql -p $port -v ON_ERROR_STOP=1 -qtAX $*"; }
if [ "$(psql_admin "-c \"SELECT 1 FROM pg_roles WHERE rolname = '$ROLE'\"")" != "1" ]; then
    log "creating role $ROLE"
    psql_admin "-c \"CREATE ROLE $ROLE LOGIN PASSWORD '$PASSWORD'\"" >&2
fi
if [ "$(psql_admin "-c \"SELECT 1 FROM pg_database WHERE datname = '$DATABASE'\"")" != "1" ]; then
    log "creating database $DATABASE"
    psql_admin "-c \"CREATE DATABASE $DATABASE OWNER $ROLE\"" >&2
fi

echo "postgresql+psycopg://$ROLE:$PASSWORD@127.0.0.1:$port/$DATABASE"
