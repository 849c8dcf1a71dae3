#!/usr/bin/env bash
# hack/postgres-rootfs.sh DIR — assemble the root file system of the e2e
# PostgreSQL image from this machine's Debian postgresql-15 (binaries, their
# shared libraries, share/, a busybox shell) and print DIR. No image of
# PostgreSQL can be pulled where there is no registry. Needs root (owners).
# POSTGRES_BARMAN=1 adds Debian's barman-cli-cloud (Python 3.11 and the
# packages it depends on, file by file from dpkg -L): CloudNativePG's WAL
# archiving and backups run barman-cloud-* inside the PostgreSQL image.
set -euo pipefail
R=${1:?usage: postgres-rootfs.sh DIR}
PG=/usr/lib/postgresql/15
if [[ ! -x $PG/bin/postgres ]]; then
  echo "postgres-rootfs: $PG/bin/postgres missing (apt-get install postgresql-15)" >&2
  exit 1
fi
command -v busybox >/dev/null || { echo "postgres-rootfs: busybox missing (apt-get install busybox-static)" >&2; exit 1; }
rm -rf "$R"
mkdir -p "$R"/{bin,etc,tmp,var/run/postgresql,var/lib/postgresql,usr/lib/postgresql/15,usr/share/postgresql,lib64}
chmod 1777 "$R/tmp"
cp -a $PG/bin $PG/lib "$R/usr/lib/postgresql/15/"
cp -a /usr/share/postgresql/15 "$R/usr/share/postgresql/"
rm -rf "$R/usr/share/postgresql/15/man"
cp -a /usr/share/zoneinfo "$R/usr/share/"   # Debian's PostgreSQL uses the system zone database
# Every program: CloudNativePG's instance manager also runs pg_controldata,
# pg_basebackup, pg_rewind and pg_archivecleanup.
libs=$(for f in "$R"/usr/lib/postgresql/15/bin/* "$R"/usr/lib/postgresql/15/lib/*.so; do
  ldd "$f" 2>/dev/null | awk '/=>/ && $3 ~ /^\// {print $3}'; done | sort -u)
for l in $libs /lib/x86_64-linux-gnu/libnss_files.so.2; do
  [[ -e $l ]] || continue
  mkdir -p "$R$(dirname "$l")"
  cp -L "$l" "$R$l"
done
if [[ ${POSTGRES_BARMAN:-0} == 1 ]]; then
  # Debian's packages as they are installed on this machine; the Python
  # extension modules' libraries join the ldd pass below.
  barman=(barman-cli-cloud python3-barman python3-boto3 python3-botocore python3-s3transfer python3-jmespath
    python3-dateutil python3-six python3-urllib3 python3-certifi python3-idna python3-charset-normalizer
    python3-chardet python3-requests python3-psycopg2 python3-pkg-resources python3-argcomplete
    python3.11-minimal libpython3.11-minimal libpython3.11-stdlib python3-minimal python3 ca-certificates)
  for p in "${barman[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
      { echo "postgres-rootfs: $p missing (apt-get install barman-cli-cloud)" >&2; exit 1; }
  done
  # Files and symbolic links only (tar would copy a listed directory whole).
  dpkg -L "${barman[@]}" | grep -vE '^/usr/share/(doc|man|lintian)/|/test/|/tests/' | sort -u |
    while read -r f; do if [[ -f $f || -L $f ]]; then echo "$f"; fi; done >"$R/.barman-files"
  echo /etc/ssl/certs/ca-certificates.crt >>"$R/.barman-files"
  tar -C / -cf - --no-recursion -T "$R/.barman-files" 2>/dev/null | tar -C "$R" -xf -
  rm -f "$R/.barman-files"
  libs=$(for f in /usr/bin/python3.11 "$R"/usr/lib/python3.11/lib-dynload/*.so $(find "$R/usr/lib/python3/dist-packages" -name '*.so'); do
    ldd "$f" 2>/dev/null | awk '/=>/ && $3 ~ /^\// {print $3}'; done | sort -u)
  for l in $libs; do
    [[ -e $R$l ]] && continue
    mkdir -p "$R$(dirname "$l")"
    cp -L "$l" "$R$l"
  done
fi
cp -L /lib64/ld-linux-x86-64.so.2 "$R/lib64/"
cp "$(command -v busybox)" "$R/bin/busybox"
for a in sh ls cat mkdir chown chmod id env sleep rm; do ln -sf busybox "$R/bin/$a"; done
# UID 26 is the user CloudNativePG runs PostgreSQL as (its postgresUID);
# initdb refuses a user without a name.
printf 'root:x:0:0:root:/root:/bin/sh\npostgres:x:999:999:PostgreSQL:/var/lib/postgresql:/bin/sh\ncnpg:x:26:26:CloudNativePG:/var/lib/postgresql:/bin/sh\n' >"$R/etc/passwd"
printf 'root:x:0:\npostgres:x:999:\ncnpg:x:26:\n' >"$R/etc/group"
printf 'passwd: files\ngroup: files\n' >"$R/etc/nsswitch.conf"
cat >"$R/bin/pg-entrypoint" <<'EOS'
#!/bin/sh
# initdb on first start (password from POSTGRES_PASSWORD), then exec postgres.
set -e
PGDATA=${PGDATA:-/var/lib/postgresql/data}
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  mkdir -p "$PGDATA"; chmod 700 "$PGDATA"
  echo "${POSTGRES_PASSWORD:-postgres}" > /tmp/pw
  initdb -D "$PGDATA" -U "${POSTGRES_USER:-postgres}" --pwfile=/tmp/pw --auth-host=scram-sha-256 --auth-local=trust --no-locale -E UTF8 >/dev/null
  rm -f /tmp/pw
  echo "host all all 0.0.0.0/0 scram-sha-256" >> "$PGDATA/pg_hba.conf"
fi
exec postgres -D "$PGDATA" -c listen_addresses='*' -c unix_socket_directories=/tmp "$@"
EOS
chmod 755 "$R/bin/pg-entrypoint"
chown -R 999:999 "$R/var/lib/postgresql" "$R/var/run/postgresql"
echo "$R"
