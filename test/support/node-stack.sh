#!/usr/bin/env bash
# The runtime side of a real Kubernetes node on this machine, for integration tests:
# sshd on 127.0.0.1 (key-only), a private containerd 1.6 with CRI, runc, CNI, a locally built busybox
# image and N real pods. Recipe and the reasons for every setting: /work/shared/docs/test-node-stack.md.
#
#   bash test/support/node-stack.sh install            apt packages (needs root and network to Debian)
#   bash test/support/node-stack.sh up [--pods N]      start everything; prints KEY=VALUE lines, writes $RUN/env
#   bash test/support/node-stack.sh down               idempotent teardown, safe after a crash
#   bash test/support/node-stack.sh check              exit 1 listing anything left behind
#   bash test/support/node-stack.sh status             exit 0 when a healthy stack is up (prints its env)
#
# $RUN defaults to <repo>/.node-stack and can be overridden with NODE_STACK_DIR.
# Processes are only ever signalled by a recorded or discovered PID, never by name.
#
# $RUN/env (also printed by up/status): SSH_HOST SSH_PORT SSH_USER (plegtest) SSH_KEY (private key, valid
# for plegtest and root) SSH_ROOT_USER SSH_HOST_KEY_PUB (path of the host's .pub file) SSH_KNOWN_HOSTS
# (a known_hosts file with "[127.0.0.1]:port key") CRI_SOCKET CONTAINERD_PID SSHD_PID NODE_STACK_DIR
# POD_LOG_DIR IMAGE. When sudo is installed, plegtest may run `sudo -n socat|test|ls` (exec-relay transport).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
# shellcheck source=closeInheritedFds.sh
source "$HERE/closeInheritedFds.sh"
RUN="${NODE_STACK_DIR:-$REPO/.node-stack}"
mkdir -p "$(dirname "$RUN")"
RUN="$(cd "$(dirname "$RUN")" && pwd)/$(basename "$RUN")"
C="$RUN/containerd"
SOCK="$C/containerd.sock"
SSH_PORT="${NODE_STACK_SSH_PORT:-22022}"
TEST_USER=plegtest
BRIDGE=plegbr0
CNI_NET=plegtest
CGROUP_PARENT=plegtest
IMAGE=localhost/busybox:static
SUDOERS=/etc/sudoers.d/plegtest-node-stack
# The user, bridge, cgroup parent and sudo rule are machine-wide: only one stack may own them at a time.
OWNER_FILE=/run/pleg-node-stack.owner
# authorized_keys lives outside $RUN: sshd reads it as the target user, who may not be able to traverse
# the checkout's parent directories (a clone under /root is 0700).
AUTH_KEYS_DIR=/run/pleg-node-stack-ssh

log() { printf '[node-stack] %s\n' "$*" >&2; }
die() { printf '[node-stack] ERROR: %s\n' "$*" >&2; exit 1; }

need_root() { [ "$(id -u)" = 0 ] || die "must run as root (it creates a user, mounts, cgroups and network devices)"; }

# A PID is alive unless it is gone or a zombie waiting for a lazy reaper.
alive() {
  local pid="$1" state
  [ -n "$pid" ] && [ -r "/proc/$pid/stat" ] || return 1
  state="$(sed -e 's/^.*) //' "/proc/$pid/stat" 2>/dev/null | cut -d' ' -f1)" || return 1
  [ -n "$state" ] && [ "$state" != Z ]
}

wait_dead() {
  local pid="$1" tries="${2:-50}"
  while alive "$pid" && [ "$tries" -gt 0 ]; do sleep 0.1; tries=$((tries - 1)); done
  ! alive "$pid"
}

read_pid() { [ -r "$1" ] && tr -d ' \n' < "$1" || true; }

# Refuses to touch machine-wide state that a live stack in another directory owns.
guard_owner() {
  local other
  other="$(cat "$OWNER_FILE" 2>/dev/null || true)"
  [ -z "$other" ] || [ "$other" = "$RUN" ] && return 0
  if alive "$(read_pid "$other/containerd/containerd.pid")" || alive "$(read_pid "$other/ssh/sshd.pid.recorded")"; then
    die "another node stack is up in $other and owns the plegtest user, bridge and cgroups; run NODE_STACK_DIR=$other bash $0 down first"
  fi
}

# systemd-journal-remote: its writer makes the real journal files of the journal reader tests (test/support/journalRemote.ts).
STACK_PACKAGES=(openssh-server containerd runc containernetworking-plugins busybox-static socat sudo iproute2 systemd-journal-remote)

cmd_install() {
  local missing=() p
  for p in "${STACK_PACKAGES[@]}"; do dpkg -s "$p" > /dev/null 2>&1 || missing+=("$p"); done
  if [ ${#missing[@]} -eq 0 ]; then log "install: all packages present"; return 0; fi
  need_root
  export DEBIAN_FRONTEND=noninteractive
  apt-get -o DPkg::Lock::Timeout=600 update
  apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends "${missing[@]}"
}

# ---------------------------------------------------------------------------------------------- up

sshd_healthy() {
  local pid; pid="$(read_pid "$RUN/ssh/sshd.pid.recorded")"
  alive "$pid" || return 1
  # A TCP connect is enough to tell a listening sshd from a dead one; bash's /dev/tcp needs no tools.
  (exec 3<>"/dev/tcp/127.0.0.1/$SSH_PORT") 2>/dev/null
}

containerd_healthy() {
  local pid; pid="$(read_pid "$C/containerd.pid")"
  alive "$pid" || return 1
  [ -S "$SOCK" ] || return 1
  timeout 5 ctr -a "$SOCK" version > /dev/null 2>&1
}

stack_healthy() { [ -f "$RUN/env" ] && sshd_healthy && containerd_healthy; }

start_sshd() {
  mkdir -p "$RUN/ssh" "$RUN/home"
  chmod 755 "$RUN" "$RUN/ssh" "$RUN/home"
  [ -f "$RUN/ssh/ssh_host_ed25519_key" ] || ssh-keygen -q -t ed25519 -N '' -C plegtest-node-stack-host -f "$RUN/ssh/ssh_host_ed25519_key"
  [ -f "$RUN/ssh/client_ed25519" ] || ssh-keygen -q -t ed25519 -N '' -C plegtest-node-stack-client -f "$RUN/ssh/client_ed25519"
  # sshd reads authorized_keys as the target user: root-owned 0644 works for both root and plegtest.
  mkdir -p "$AUTH_KEYS_DIR"
  chmod 0755 "$AUTH_KEYS_DIR"
  cp "$RUN/ssh/client_ed25519.pub" "$AUTH_KEYS_DIR/authorized_keys"
  chown root:root "$AUTH_KEYS_DIR/authorized_keys"
  chmod 0644 "$AUTH_KEYS_DIR/authorized_keys"
  # The client key is read by tests that may run as another user on a shared machine; keep it private.
  chmod 0600 "$RUN/ssh/client_ed25519"
  printf '[127.0.0.1]:%s %s\n' "$SSH_PORT" "$(cut -d' ' -f1,2 "$RUN/ssh/ssh_host_ed25519_key.pub")" > "$RUN/ssh/known_hosts"

  if ! id "$TEST_USER" > /dev/null 2>&1; then
    useradd -M -d "$RUN/home/$TEST_USER" -s /bin/bash "$TEST_USER"
  fi
  # useradd locks the account ("!"), which sshd rejects with UsePAM no; "*" unlocks it without a password.
  usermod -p '*' "$TEST_USER"
  mkdir -p "$RUN/home/$TEST_USER"
  chown "$TEST_USER": "$RUN/home/$TEST_USER"
  mkdir -p /run/sshd

  # A non-interactive sudo rule for the exec-relay transport (sudo -n socat STDIO UNIX-CONNECT:<sock>)
  # and for crictl-style probes, only when sudo is installed. Removed by `down`.
  if [ -d /etc/sudoers.d ] && command -v sudo > /dev/null 2>&1; then
    printf '%s ALL=(root) NOPASSWD: /usr/bin/socat, /usr/bin/test, /bin/ls, /usr/bin/ls\n' "$TEST_USER" > "$SUDOERS.tmp"
    chmod 0440 "$SUDOERS.tmp"
    if visudo -cf "$SUDOERS.tmp" > /dev/null 2>&1; then mv "$SUDOERS.tmp" "$SUDOERS"; else rm -f "$SUDOERS.tmp"; log "sudoers rule rejected by visudo; skipped"; fi
  fi

  cat > "$RUN/ssh/sshd_config" <<EOF
Port $SSH_PORT
ListenAddress 127.0.0.1
HostKey $RUN/ssh/ssh_host_ed25519_key
PidFile $RUN/ssh/sshd.pid
AuthorizedKeysFile $AUTH_KEYS_DIR/authorized_keys
# A loopback test daemon: the checkout may sit under a world-writable /tmp, which StrictModes refuses.
StrictModes no
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
UsePAM no
AllowTcpForwarding yes
AllowStreamLocalForwarding yes
StreamLocalBindUnlink yes
MaxSessions 100
MaxStartups 100:30:200
LogLevel INFO
Subsystem sftp /usr/lib/openssh/sftp-server
EOF
  /usr/sbin/sshd -t -f "$RUN/ssh/sshd_config" || die "sshd rejected $RUN/ssh/sshd_config"
  if sshd_healthy; then return 0; fi
  # Absolute path: sshd re-executes itself.
  ( close_inherited_fds; exec setsid /usr/sbin/sshd -D -e -f "$RUN/ssh/sshd_config" > "$RUN/ssh/sshd.log" 2>&1 < /dev/null ) &
  echo $! > "$RUN/ssh/sshd.pid.recorded"
  local i
  for i in $(seq 1 50); do
    grep -q 'Server listening' "$RUN/ssh/sshd.log" 2>/dev/null && return 0
    alive "$(read_pid "$RUN/ssh/sshd.pid.recorded")" || break
    sleep 0.1
  done
  cat "$RUN/ssh/sshd.log" >&2 || true
  die "sshd did not start listening on 127.0.0.1:$SSH_PORT"
}

build_image() {
  local work="$RUN/image" rootfs diff cfg a
  [ -f "$RUN/busybox-image.tar" ] && return 0
  rm -rf "$work"; mkdir -p "$work/rootfs/bin" "$work/rootfs/etc" "$work/rootfs/proc" "$work/rootfs/sys" "$work/rootfs/dev" "$work/rootfs/tmp" "$work/archive"
  rootfs="$work/rootfs"
  cp /bin/busybox "$rootfs/bin/busybox"
  for a in sh sleep ls cat echo ps id hostname true false env; do ln -s busybox "$rootfs/bin/$a"; done
  echo 'root:x:0:0:root:/:/bin/sh' > "$rootfs/etc/passwd"
  echo 'root:x:0:' > "$rootfs/etc/group"
  chmod 1777 "$rootfs/tmp"
  tar --sort=name --mtime='2024-01-01 00:00Z' --owner=0 --group=0 --numeric-owner -C "$rootfs" -cf "$work/layer.tar" .
  diff="$(sha256sum "$work/layer.tar" | cut -d' ' -f1)"
  printf '{"architecture":"amd64","os":"linux","created":"2024-01-01T00:00:00Z","config":{"Env":["PATH=/bin"],"Cmd":["/bin/sleep","2147483647"],"WorkingDir":"/"},"rootfs":{"type":"layers","diff_ids":["sha256:%s"]},"history":[{"created":"2024-01-01T00:00:00Z","created_by":"busybox-static"}]}' "$diff" > "$work/config.json"
  cfg="$(sha256sum "$work/config.json" | cut -d' ' -f1)"
  mkdir -p "$work/archive/$diff"
  mv "$work/layer.tar" "$work/archive/$diff/layer.tar"
  mv "$work/config.json" "$work/archive/$cfg.json"
  printf '[{"Config":"%s.json","RepoTags":["%s"],"Layers":["%s/layer.tar"]}]' "$cfg" "$IMAGE" "$diff" > "$work/archive/manifest.json"
  tar -C "$work/archive" -cf "$RUN/busybox-image.tar" .
  rm -rf "$work"
}

start_containerd() {
  mkdir -p "$C/root" "$C/state" "$C/runc" "$RUN/cni/net.d" "$RUN/cni/ipam" "$RUN/podlogs"
  # Whether /run/netns was a mountpoint before us decides whether teardown may unmount a self-bind there.
  if [ ! -f "$RUN/netns-was-mountpoint" ]; then
    if mountpoint -q /run/netns 2>/dev/null; then echo yes > "$RUN/netns-was-mountpoint"; else echo no > "$RUN/netns-was-mountpoint"; fi
  fi
  cat > "$C/config.toml" <<EOF
version = 2
root = "$C/root"
state = "$C/state"
oom_score = 0
disabled_plugins = ["io.containerd.internal.v1.tracing", "io.containerd.snapshotter.v1.aufs", "io.containerd.snapshotter.v1.btrfs", "io.containerd.snapshotter.v1.zfs", "io.containerd.snapshotter.v1.devmapper"]
[grpc]
  address = "$SOCK"
  uid = 0
  gid = 0
[ttrpc]
  address = "$SOCK.ttrpc"
[debug]
  level = "info"
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "$IMAGE"
  enable_selinux = false
  disable_apparmor = true
  restrict_oom_score_adj = true
  disable_cgroup = false
  enable_unprivileged_ports = false
  enable_unprivileged_icmp = false
  stream_server_address = "127.0.0.1"
  stream_server_port = "0"
  max_container_log_line_size = 16384
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        BinaryName = "/usr/sbin/runc"
        SystemdCgroup = false
        Root = "$C/runc"
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "$RUN/cni/net.d"
    max_conf_num = 1
EOF
  cat > "$RUN/cni/net.d/10-plegtest.conflist" <<EOF
{ "cniVersion": "1.0.0", "name": "$CNI_NET", "plugins": [
  { "type": "bridge", "bridge": "$BRIDGE", "isGateway": false, "ipMasq": false, "hairpinMode": false,
    "ipam": { "type": "host-local", "dataDir": "$RUN/cni/ipam", "ranges": [[{ "subnet": "10.244.77.0/24" }]] } },
  { "type": "loopback" } ] }
EOF
  if containerd_healthy; then return 0; fi
  local old; old="$(read_pid "$C/containerd.pid")"
  if alive "$old"; then
    # Probably left SIGSTOPped by an interrupted fault test: continue it rather than start a second one.
    kill -CONT "$old" 2>/dev/null || true
    local j
    for j in $(seq 1 50); do containerd_healthy && return 0; sleep 0.1; done
    die "containerd (pid $old) is alive but does not answer on $SOCK; run: bash $0 down && bash $0 up"
  fi
  ( close_inherited_fds; exec setsid /usr/bin/containerd --config "$C/config.toml" > "$C/containerd.log" 2>&1 < /dev/null ) &
  echo $! > "$C/containerd.pid"
  local i pid
  pid="$(read_pid "$C/containerd.pid")"
  for i in $(seq 1 100); do
    if [ -S "$SOCK" ] && ctr -a "$SOCK" version > /dev/null 2>&1; then break; fi
    alive "$pid" || { tail -n 30 "$C/containerd.log" >&2; die "containerd exited during start"; }
    sleep 0.1
  done
  containerd_healthy || { tail -n 30 "$C/containerd.log" >&2; die "containerd did not answer on $SOCK within 10 s"; }
  build_image
  if ! ctr -a "$SOCK" -n k8s.io images ls -q | grep -qx "$IMAGE"; then
    ctr -a "$SOCK" -n k8s.io images import "$RUN/busybox-image.tar" > /dev/null || die "image import failed"
  fi
}

write_env() {
  cat > "$RUN/env.tmp" <<EOF
SSH_HOST=127.0.0.1
SSH_PORT=$SSH_PORT
SSH_USER=$TEST_USER
SSH_KEY=$RUN/ssh/client_ed25519
SSH_ROOT_USER=root
SSH_HOST_KEY_PUB=$RUN/ssh/ssh_host_ed25519_key.pub
SSH_KNOWN_HOSTS=$RUN/ssh/known_hosts
CRI_SOCKET=$SOCK
CONTAINERD_PID=$(read_pid "$C/containerd.pid")
SSHD_PID=$(read_pid "$RUN/ssh/sshd.pid.recorded")
NODE_STACK_DIR=$RUN
POD_LOG_DIR=$RUN/podlogs
IMAGE=$IMAGE
EOF
  mv "$RUN/env.tmp" "$RUN/env"
}

cmd_up() {
  need_root
  local pods=0
  while [ $# -gt 0 ]; do
    case "$1" in
      --pods) pods="${2:?--pods needs a number}"; shift 2 ;;
      --pods=*) pods="${1#--pods=}"; shift ;;
      *) die "unknown option for up: $1" ;;
    esac
  done
  [[ "$pods" =~ ^[0-9]+$ ]] || die "--pods must be a non-negative integer, got '$pods'"
  if stack_healthy; then
    log "stack already up in $RUN; reusing it"
    cat "$RUN/env"
    return 0
  fi
  guard_owner
  mkdir -p "$RUN" /run
  echo "$RUN" > "$OWNER_FILE"
  local t0; t0="$(date +%s%N)"
  start_sshd
  start_containerd
  write_env
  if [ "$pods" -gt 0 ]; then
    (cd "$REPO" && NODE_STACK_DIR="$RUN" npx --no-install tsx test/support/criPods.ts create --count "$pods") >&2 \
      || die "creating $pods pods failed (stack left up; run down to clean)"
  fi
  log "up in $(( ($(date +%s%N) - t0) / 1000000 )) ms"
  cat "$RUN/env"
}

cmd_status() {
  if stack_healthy; then cat "$RUN/env"; return 0; fi
  log "node stack is not up in $RUN"
  return 1
}

# -------------------------------------------------------------------------------------------- down

# Shims run with `-address $SOCK`; find them through /proc, check comm, and return their PIDs.
shim_pids() {
  local d pid comm
  for d in /proc/[0-9]*; do
    pid="${d#/proc/}"
    [ -r "$d/cmdline" ] || continue
    tr '\0' ' ' < "$d/cmdline" 2>/dev/null | grep -qF -- "$SOCK" || continue
    comm="$(cat "$d/comm" 2>/dev/null || true)"
    case "$comm" in containerd-shim*) echo "$pid" ;; esac
  done
}

pids_with_in_cmdline() {
  local needle="$1" d pid self="$$"
  for d in /proc/[0-9]*; do
    pid="${d#/proc/}"
    [ "$pid" = "$self" ] && continue
    [ "$pid" = "$BASHPID" ] && continue
    [ -r "$d/cmdline" ] || continue
    tr '\0' ' ' < "$d/cmdline" 2>/dev/null | grep -qF -- "$needle" || continue
    alive "$pid" && echo "$pid"
  done
}

other_containerd_running() {
  local d comm
  for d in /proc/[0-9]*; do
    comm="$(cat "$d/comm" 2>/dev/null || true)"
    [ "$comm" = containerd ] && alive "${d#/proc/}" && return 0
  done
  return 1
}

cmd_down() {
  need_root
  guard_owner
  local pid p i
  pid="$(read_pid "$C/containerd.pid")"
  # 1. A fault test may have left containerd (or a shim) stopped: continue them so CRI can clean up.
  if alive "$pid"; then kill -CONT "$pid" 2>/dev/null || true; fi
  for p in $(shim_pids); do kill -CONT "$p" 2>/dev/null || true; done
  if alive "$pid" && [ -S "$SOCK" ]; then
    (cd "$REPO" && NODE_STACK_DIR="$RUN" timeout 60 npx --no-install tsx test/support/criPods.ts remove-all) >&2 \
      || log "removing pods through CRI failed; continuing with the forced cleanup"
  fi
  # 2. containerd: SIGTERM, then SIGKILL after 5 s.
  if alive "$pid"; then
    kill -TERM "$pid" 2>/dev/null || true
    wait_dead "$pid" 50 || { kill -KILL "$pid" 2>/dev/null || true; wait_dead "$pid" 50 || true; }
  fi
  # 3. Shims survive containerd by design.
  for p in $(shim_pids); do kill -KILL "$p" 2>/dev/null || true; done
  for p in $(shim_pids); do wait_dead "$p" 50 || log "shim $p did not exit"; done
  # 4. runc state of containers whose shim is gone.
  if [ -d "$C/runc/k8s.io" ]; then
    # In parallel: each forced delete waits for its container's processes (~2 s).
    for i in $(runc --root "$C/runc/k8s.io" list -q 2>/dev/null || true); do
      runc --root "$C/runc/k8s.io" delete --force "$i" > /dev/null 2>&1 &
    done
    wait
  fi
  # 5. The shared shim socket dir, only when no other containerd uses it.
  if ! other_containerd_running; then
    rm -rf /run/containerd/s
    rmdir /run/containerd 2>/dev/null || true
  fi
  # 6. Mounts under $RUN (overlay rootfs, shm), deepest first.
  local m
  for i in 1 2 3; do
    while IFS= read -r m; do
      [ -n "$m" ] && umount -l "$m" 2>/dev/null || true
    done < <(awk -v run="$RUN/" 'index($5, run) == 1 { print $5 }' /proc/self/mountinfo | sort -r)
  done
  # 7. netns bind mounts of CNI pods, then a stray self-bind of /run/netns we created.
  local was; was="$(cat "$RUN/netns-was-mountpoint" 2>/dev/null || echo no)"
  for i in 1 2 3; do
    for m in /run/netns/cni-*; do
      [ -e "$m" ] || continue
      umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true
    done
    if [ "$was" = no ] && mountpoint -q /run/netns 2>/dev/null; then umount /run/netns 2>/dev/null || umount -l /run/netns 2>/dev/null || true; fi
  done
  rm -f /run/netns/cni-* 2>/dev/null || true
  rmdir /run/netns 2>/dev/null || true
  # 8. libcni result cache and the bridge.
  for m in /var/lib/cni/results/"$CNI_NET"-*; do
    [ -e "$m" ] || continue
    i="${m#/var/lib/cni/results/$CNI_NET-}"; i="${i%-eth0}"
    rm -f "$m" "/var/lib/cni/results/cni-loopback-$i-lo"
  done
  if ip link show "$BRIDGE" > /dev/null 2>&1; then ip link del "$BRIDGE" || true; fi
  # 9. cgroups, every controller, deepest first.
  for m in /sys/fs/cgroup/*/"$CGROUP_PARENT" /sys/fs/cgroup/"$CGROUP_PARENT"; do
    [ -d "$m" ] || continue
    find "$m" -depth -type d -exec rmdir {} \; 2>/dev/null || true
  done
  # 10. sshd: the recorded PID, the PID file, and anything naming our config.
  for p in "$(read_pid "$RUN/ssh/sshd.pid.recorded")" "$(read_pid "$RUN/ssh/sshd.pid")"; do
    alive "$p" && kill -TERM "$p" 2>/dev/null || true
  done
  for p in $(pids_with_in_cmdline "$RUN/ssh/sshd_config"); do kill -TERM "$p" 2>/dev/null || true; done
  for p in $(pids_with_in_cmdline "$RUN/ssh/sshd_config"); do wait_dead "$p" 30 || kill -KILL "$p" 2>/dev/null || true; done
  # Any other process still naming $RUN (e.g. a relay left by a test) is ours too.
  for p in $(pids_with_in_cmdline "$RUN/"); do kill -KILL "$p" 2>/dev/null || true; done
  # 11. The user, the sudo rule, our files and the bridge dirs of the unix-bridge mode.
  if id "$TEST_USER" > /dev/null 2>&1; then
    for p in $(pgrep -u "$TEST_USER" 2>/dev/null || true); do kill -KILL "$p" 2>/dev/null || true; done
    userdel "$TEST_USER" 2>/dev/null || { sleep 0.3; userdel "$TEST_USER" || log "userdel $TEST_USER failed"; }
  fi
  rm -f "$SUDOERS" "$SUDOERS.tmp" "$OWNER_FILE"
  rm -rf "$AUTH_KEYS_DIR"
  rm -rf "$RUN" "${TMPDIR:-/tmp}"/cri-fwd-*
  log "down: done"
}

cmd_check() {
  local left=() p m
  for p in $(pids_with_in_cmdline "$RUN/") $(pids_with_in_cmdline "$SOCK"); do
    left+=("process $p: $(tr '\0' ' ' < "/proc/$p/cmdline" 2>/dev/null | cut -c1-160)")
  done
  while IFS= read -r m; do [ -n "$m" ] && left+=("mount $m"); done < <(awk -v run="$RUN" 'index($5, run) == 1 { print $5 }' /proc/self/mountinfo)
  if [ -d /run/netns ]; then
    for m in /run/netns/*; do [ -e "$m" ] && left+=("netns $m"); done
  fi
  ip link show "$BRIDGE" > /dev/null 2>&1 && left+=("bridge $BRIDGE")
  for m in /sys/fs/cgroup/*/"$CGROUP_PARENT" /sys/fs/cgroup/"$CGROUP_PARENT"; do [ -d "$m" ] && left+=("cgroup $m"); done
  if [ -d /run/containerd/s ] && [ -n "$(ls -A /run/containerd/s 2>/dev/null)" ]; then left+=("non-empty /run/containerd/s"); fi
  id "$TEST_USER" > /dev/null 2>&1 && left+=("user $TEST_USER")
  [ -e "$SUDOERS" ] && left+=("sudoers rule $SUDOERS")
  [ -e "$OWNER_FILE" ] && left+=("owner file $OWNER_FILE ($(cat "$OWNER_FILE" 2>/dev/null))")
  [ -e "$AUTH_KEYS_DIR" ] && left+=("sshd key dir $AUTH_KEYS_DIR")
  for m in /var/lib/cni/results/"$CNI_NET"-*; do [ -e "$m" ] && left+=("cni result $m"); done
  [ -e "$RUN" ] && left+=("directory $RUN")
  if [ ${#left[@]} -gt 0 ]; then
    printf '[node-stack] left behind:\n' >&2
    printf '  %s\n' "${left[@]}" >&2
    return 1
  fi
  log "check: nothing left behind"
}

# up and down change shared machine state (a user, a bridge, cgroups): several test runs on one machine
# must not interleave them, whatever their $RUN. The lock is outside $RUN, which down removes.
# Daemons are started without it (close_inherited_fds) so that they do not keep holding it.
with_lock() {
  exec 9> "${TMPDIR:-/tmp}/pleg-node-stack.lock"
  if ! flock -w 120 9; then die "another node-stack.sh up/down still holds the node-stack lock after 120 s"; fi
  "$@"
}

verb="${1:-}"; shift || true
case "$verb" in
  install) cmd_install "$@" ;;
  up) with_lock cmd_up "$@" ;;
  down) with_lock cmd_down "$@" ;;
  check) cmd_check "$@" ;;
  status) cmd_status "$@" ;;
  *) die "usage: node-stack.sh install|up [--pods N]|down|check|status" ;;
esac
