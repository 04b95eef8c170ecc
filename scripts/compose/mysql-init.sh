#!/bin/bash
# docker-compose.yml's MySQL runs this once, on its first start (/docker-entrypoint-initdb.d): Temporal's two
# databases and its own user, with rights on those two only. The image itself creates the service's user
# (MYSQL_USER, MYSQL_PASSWORD) with rights on MYSQL_DATABASE only. Nothing but this script connects as root.
set -euo pipefail
: "${TEMPORAL_MYSQL_PASSWORD:?set TEMPORAL_MYSQL_PASSWORD}"
# as a string literal of SQL: backslashes and quotes doubled
password=${TEMPORAL_MYSQL_PASSWORD//\\/\\\\}
password=${password//\'/\'\'}
MYSQL_PWD="$MYSQL_ROOT_PASSWORD" mysql --protocol=socket -uroot <<SQL
CREATE DATABASE IF NOT EXISTS temporal;
CREATE DATABASE IF NOT EXISTS temporal_visibility;
CREATE USER IF NOT EXISTS 'temporal'@'%' IDENTIFIED BY '${password}';
GRANT ALL PRIVILEGES ON temporal.* TO 'temporal'@'%';
GRANT ALL PRIVILEGES ON temporal_visibility.* TO 'temporal'@'%';
SQL
