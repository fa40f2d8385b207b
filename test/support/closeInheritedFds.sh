# Sourced by the scripts that start daemons (node-stack.sh, real-cluster.sh). The daemons outlive the
# script: they must not inherit its open files, above all the fd of `flock /tmp/pleg-heavy.lock …`, which
# would keep that lock held for the daemon's whole life and stall every later heavy run. Call it in the
# subshell that execs the daemon.
close_inherited_fds() {
  local fd
  for fd in /proc/$BASHPID/fd/*; do
    fd="${fd##*/}"
    # 255 is bash's own handle on the running script.
    [ "$fd" -gt 2 ] 2>/dev/null && [ "$fd" != 255 ] && { eval "exec $fd>&-" 2>/dev/null || true; }
  done
}
