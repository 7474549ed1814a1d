#!/usr/bin/env bash
# A throwaway Postfix for the mail tests: never the system's (its own config, queue and log in DIR).
#
#   tools/mailtest/start-postfix.sh DIR SUBMISSION_PORT LMTP_PORT AUTH_PORT TLS_DIR
#
# Listens on 127.0.0.1:SUBMISSION_PORT only, as a provider's submission service: STARTTLS
# required (TLS_DIR/server.pem and server.key from tools/mailtest/make-ca.sh), then SMTP AUTH
# checked by Dovecot's authentication service on AUTH_PORT; mail for example.org is delivered by
# LMTP to Dovecot on LMTP_PORT (tools/mailtest/start-dovecot.sh), and a delivery Dovecot refuses
# (a full mailbox: 552 5.2.2) comes back to its sender as a delivery-status notification (a bounce).
# The message size limit is Postfix's default, 10240000 bytes, announced as SIZE.
# Stop it with  postfix -c DIR/etc stop.  Needs Debian's postfix, and root (Postfix's master
# starts as root and drops to the postfix user).
set -eu
dir=$1; port=$2; lmtp=$3; auth=$4; tls=$5
command -v postfix >/dev/null 2>&1 || { echo "postfix is not installed (apt-get install -y postfix)" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "Postfix needs root to start (its master drops to the postfix user)" >&2; exit 2; }
id postfix >/dev/null 2>&1 || { echo "the postfix user is missing (reinstall Debian's postfix)" >&2; exit 2; }
mkdir -p "$dir/etc" "$dir/spool" "$dir/data"
dir=$(cd "$dir" && pwd)
chown postfix "$dir/data"
cp "$tls/server.pem" "$tls/server.key" "$dir/etc/"
chmod 0600 "$dir/etc/server.key"
cat > "$dir/etc/main.cf" <<CONF
compatibility_level = 3.6
queue_directory = $dir/spool
data_directory = $dir/data
meta_directory = /etc/postfix
mail_owner = postfix
setgid_group = postdrop
myhostname = mail.example.org
mydomain = example.org
myorigin = example.org
mydestination =
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
maillog_file = $dir/maillog
maillog_file_prefixes = $dir
alias_maps =
alias_database =
biff = no
smtputf8_enable = no
virtual_mailbox_domains = example.org
virtual_transport = lmtp:inet:127.0.0.1:$lmtp
smtpd_tls_cert_file = $dir/etc/server.pem
smtpd_tls_key_file = $dir/etc/server.key
smtpd_tls_security_level = encrypt
smtpd_tls_auth_only = yes
smtpd_sasl_type = dovecot
smtpd_sasl_path = inet:127.0.0.1:$auth
smtpd_sasl_auth_enable = yes
smtpd_relay_restrictions = permit_sasl_authenticated, reject
smtpd_recipient_restrictions = permit_sasl_authenticated, reject
smtpd_sender_login_maps = inline:{ }
queue_run_delay = 5s
minimal_backoff_time = 5s
maximal_backoff_time = 10s
delay_warning_time = 0
CONF
cat > "$dir/etc/master.cf" <<CONF
127.0.0.1:$port inet n - n - - smtpd
pickup    unix  n       -       n       60      1       pickup
cleanup   unix  n       -       n       -       0       cleanup
qmgr      unix  n       -       n       300     1       qmgr
tlsmgr    unix  -       -       n       1000?   1       tlsmgr
rewrite   unix  -       -       n       -       -       trivial-rewrite
bounce    unix  -       -       n       -       0       bounce
defer     unix  -       -       n       -       0       bounce
trace     unix  -       -       n       -       0       bounce
verify    unix  -       -       n       -       1       verify
flush     unix  n       -       n       1000?   0       flush
proxymap  unix  -       -       n       -       -       proxymap
smtp      unix  -       -       n       -       -       smtp
relay     unix  -       -       n       -       -       smtp
showq     unix  n       -       n       -       -       showq
error     unix  -       -       n       -       -       error
retry     unix  -       -       n       -       -       error
discard   unix  -       -       n       -       -       discard
local     unix  -       n       n       -       -       local
virtual   unix  -       n       n       -       -       virtual
lmtp      unix  -       -       n       -       -       lmtp
anvil     unix  -       -       n       -       1       anvil
scache    unix  -       -       n       -       1       scache
postlog   unix-dgram n  -       n       -       1       postlogd
CONF
postfix -c "$dir/etc" start </dev/null >>"$dir/start.log" 2>&1 || { cat "$dir/start.log" >&2; exit 1; }
i=0
while ! (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null; do
    i=$((i + 1))
    if [ $i -gt 100 ]; then echo "postfix did not start; see $dir/maillog" >&2; exit 1; fi
    sleep 0.1
done
