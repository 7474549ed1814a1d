#!/usr/bin/env bash
# A throwaway Dovecot for the mail tests: never the system's.
#
#   tools/mailtest/start-dovecot.sh DIR PORT USER:PASSWORD[:QUOTA] [...]
#
# Writes DIR/dovecot.conf (users from DIR/passwd, maildirs under DIR/mail, everything on
# 127.0.0.1 only), starts Dovecot in the background and waits until it listens.  PORT is plain
# IMAP.  QUOTA (e.g. 64K) limits that user's mailbox: a delivery over it is refused by LMTP with
# 552 5.2.2, as a provider's full mailbox is.  With these set in the environment it also serves:
#   TLS_DIR=D     IMAP over TLS with D/server.pem and D/server.key (tools/mailtest/make-ca.sh)
#   IMAPS_PORT=N  IMAP over TLS (implicit) on port N
#   LMTP_PORT=N   LMTP on port N (the MTA's delivery into the mailboxes)
#   AUTH_PORT=N   the authentication service for the MTA's SMTP AUTH (Postfix's dovecot SASL)
# Stop it with  doveadm -c DIR/dovecot.conf stop  (or kill the pid in DIR/run/master.pid).
# Needs Debian's dovecot-imapd and dovecot-lmtpd.
set -eu
dir=$1; port=$2; shift 2
command -v dovecot >/dev/null 2>&1 || { echo "dovecot is not installed (apt-get install -y dovecot-imapd dovecot-lmtpd)" >&2; exit 2; }
mkdir -p "$dir/run" "$dir/state" "$dir/mail"
dir=$(cd "$dir" && pwd)
if [ "$(id -u)" = 0 ]; then
    # Dovecot never gives mail access to root: the mailboxes belong to nobody.
    uid=$(id -u nobody); gid=$(id -g nobody); internal=dovecot; login=dovenull
    chmod 0777 "$dir/mail"
else
    uid=$(id -u); gid=$(id -g); internal=$(id -un); login=$(id -un)
fi
: > "$dir/passwd"
for item in "$@"; do
    user=${item%%:*}; rest=${item#*:}; pass=${rest%%:*}; quota=""
    [ "$rest" = "$pass" ] || quota=${rest#*:}
    extra=""; [ -z "$quota" ] || extra="userdb_quota_rule=*:storage=$quota"
    printf '%s:{PLAIN}%s:%s:%s::%s::%s\n' "$user" "$pass" "$uid" "$gid" "$dir/mail/$user" "$extra" >> "$dir/passwd"
done
chmod 0644 "$dir/passwd"
protocols=imap; ssl=no; tls=""; imaps=0; lmtp=""; auth=""
if [ -n "${TLS_DIR:-}" ]; then
    ssl=yes; tls="ssl_cert = <$TLS_DIR/server.pem
ssl_key = <$TLS_DIR/server.key"
    imaps=${IMAPS_PORT:-0}
fi
if [ -n "${LMTP_PORT:-}" ]; then
    protocols="imap lmtp"
    lmtp="service lmtp {
  inet_listener lmtp {
    address = 127.0.0.1
    port = $LMTP_PORT
  }
}
protocol lmtp {
  mail_plugins = \$mail_plugins quota
}"
fi
if [ -n "${AUTH_PORT:-}" ]; then
    auth="service auth {
  inet_listener {
    address = 127.0.0.1
    port = $AUTH_PORT
  }
}"
fi
cat > "$dir/dovecot.conf" <<CONF
base_dir = $dir/run
state_dir = $dir/state
log_path = $dir/dovecot.log
protocols = $protocols
listen = 127.0.0.1
ssl = $ssl
$tls
disable_plaintext_auth = no
auth_mechanisms = plain login
default_internal_user = $internal
default_login_user = $login
first_valid_uid = $uid
mail_location = maildir:$dir/mail/%u
mail_plugins = quota
namespace inbox {
  inbox = yes
  mailbox Handled {
    auto = create
  }
}
protocol imap {
  mail_plugins = \$mail_plugins imap_quota
}
plugin {
  quota = maildir:User quota
  quota_grace = 0%%
}
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u $dir/passwd
}
userdb {
  driver = passwd-file
  args = username_format=%u $dir/passwd
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = $port
  }
  inet_listener imaps {
    address = 127.0.0.1
    port = $imaps
  }
  chroot =
}
service anvil {
  chroot =
}
$lmtp
$auth
CONF
dovecot -c "$dir/dovecot.conf" </dev/null >>"$dir/dovecot.log" 2>&1  # no pipe of the caller stays open
for p in $port ${LMTP_PORT:-} ${AUTH_PORT:-} $( [ "$imaps" = 0 ] || echo "$imaps" ); do
    i=0
    while ! (exec 3<>/dev/tcp/127.0.0.1/$p) 2>/dev/null; do
        i=$((i + 1))
        if [ $i -gt 100 ]; then echo "dovecot did not start (port $p); see $dir/dovecot.log" >&2; exit 1; fi
        sleep 0.1
    done
done
