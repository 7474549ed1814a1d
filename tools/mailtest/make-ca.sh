#!/usr/bin/env bash
# A throwaway certificate authority and a server certificate for the mail tests' servers.
#
#   tools/mailtest/make-ca.sh DIR
#
# Writes DIR/ca.pem (the CA a client is given with 'eiapbem mail setup --ca-file'),
# DIR/server.pem and DIR/server.key (for 127.0.0.1 and localhost, signed by that CA),
# and DIR/other-ca.pem (a second CA that signed nothing here: the wrong file to trust).
set -eu
dir=$1
command -v openssl >/dev/null 2>&1 || { echo "openssl is not installed (apt-get install -y openssl)" >&2; exit 2; }
mkdir -p "$dir"
cd "$dir"
for ca in ca other-ca; do
    openssl req -x509 -newkey rsa:2048 -nodes -keyout "$ca.key" -out "$ca.pem" -days 30 \
        -subj "/CN=eiapbem test $ca" -addext "basicConstraints=critical,CA:TRUE" \
        -addext "keyUsage=critical,keyCertSign,cRLSign" >/dev/null 2>&1
done
openssl req -newkey rsa:2048 -nodes -keyout server.key -out server.csr -subj "/CN=localhost" >/dev/null 2>&1
printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n' > server.ext
openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem -days 30 \
    -extfile server.ext >/dev/null 2>&1
chmod 0644 ca.pem other-ca.pem server.pem
chmod 0600 server.key ca.key other-ca.key
