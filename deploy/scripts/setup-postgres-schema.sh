#!/bin/sh
# One-shot (temporalio/admin-tools): creates the `temporal` and `temporal_visibility` databases on PostgreSQL
# and brings both schemas up to the version shipped with this admin-tools image. Safe to re-run: `create` ignores
# an existing database, `setup-schema -v 0.0` keeps a newer version, `update-schema` applies only missing steps.
# Run it with the same version as the server image so the schema matches what the server expects.
set -eu

: "${POSTGRES_SEEDS:?POSTGRES_SEEDS is required}"
: "${POSTGRES_USER:?POSTGRES_USER is required}"
: "${SQL_PASSWORD:?SQL_PASSWORD is required}"
DB_PORT=${DB_PORT:-5432}
DBNAME=${DBNAME:-temporal}
VISIBILITY_DBNAME=${VISIBILITY_DBNAME:-temporal_visibility}
SCHEMA_DIR=/etc/temporal/schema/postgresql/v12

echo "Waiting for PostgreSQL at ${POSTGRES_SEEDS}:${DB_PORT}..."
attempt=1
until nc -z -w 5 "$POSTGRES_SEEDS" "$DB_PORT"; do
  if [ "$attempt" -ge 30 ]; then
    echo "PostgreSQL did not open port ${DB_PORT} after ${attempt} attempts" >&2
    exit 1
  fi
  attempt=$((attempt + 1))
  sleep 2
done

sql_tool() {
  # SQL_PASSWORD is read by temporal-sql-tool from the environment.
  temporal-sql-tool --plugin postgres12 --ep "$POSTGRES_SEEDS" -p "$DB_PORT" -u "$POSTGRES_USER" "$@"
}

echo "Setting up database '${DBNAME}'..."
sql_tool --db "$DBNAME" create
sql_tool --db "$DBNAME" setup-schema -v 0.0
sql_tool --db "$DBNAME" update-schema -d "${SCHEMA_DIR}/temporal/versioned"

echo "Setting up database '${VISIBILITY_DBNAME}'..."
sql_tool --db "$VISIBILITY_DBNAME" create
sql_tool --db "$VISIBILITY_DBNAME" setup-schema -v 0.0
sql_tool --db "$VISIBILITY_DBNAME" update-schema -d "${SCHEMA_DIR}/visibility/versioned"

echo "PostgreSQL schemas are up to date"
