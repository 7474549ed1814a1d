#!/usr/bin/env bash
# A throwaway Dovecot IMAP server for the mail tests (issue 22): never the system's.
#
#   tools/mailtest/start-dovecot.sh DIR PORT USER:PASSWORD [USER:PASSWORD ...]
#
# Writes DIR/dovecot.conf (plain authentication, no TLS, listening on
# 127.0.0.1:PORT only, users from DIR/passwd, maildirs under DIR/mail), starts
# Dovecot in the background and waits until it listens.  Stop it with
#   doveadm -c DIR/dovecot.conf stop     (or kill the pid in DIR/run/master.pid)
# Needs Debian's dovecot-imapd (apt-get install -y dovecot-imapd).
set -eu
dir=$1; port=$2; shift 2
command -v dovecot >/dev/null 2>&1 || { echo "dovecot is not installed (apt-get install -y dovecot-imapd)" >&2; exit 2; }
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
for pair in "$@"; do
    printf '%s:{PLAIN}%s\n' "${pair%%:*}" "${pair#*:}" >> "$dir/passwd"
done
chmod 0644 "$dir/passwd"
cat > "$dir/dovecot.conf" <<CONF
base_dir = $dir/run
state_dir = $dir/state
log_path = $dir/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
default_internal_user = $internal
default_login_user = $login
first_valid_uid = $uid
mail_location = maildir:$dir/mail/%u
namespace inbox {
  inbox = yes
  mailbox Handled {
    auto = create
  }
}
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u $dir/passwd
}
userdb {
  driver = static
  args = uid=$uid gid=$gid home=$dir/mail/%u
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = $port
  }
  inet_listener imaps {
    port = 0
  }
}
service anvil {
  chroot =
}
service imap-login {
  chroot =
}
CONF
dovecot -c "$dir/dovecot.conf" </dev/null >>"$dir/dovecot.log" 2>&1  # no pipe of the caller stays open
i=0
while ! (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null; do
    i=$((i + 1))
    if [ $i -gt 100 ]; then echo "dovecot did not start; see $dir/dovecot.log" >&2; exit 1; fi
    sleep 0.1
done
