#!/usr/bin/env bash
# A real single-node Kubernetes for the real-cluster tests, the e2e and `npm run demo -- --real-cluster`: a
# thin wrapper around one of the cluster kits beside the checkout (see each kit's README), picked by
# PLEG_REAL_K8S_KIT:
#   1.26 (default)  ../shared/k8s          etcd + kube-apiserver + kubelet 1.26 on a private containerd
#   1.36            ../shared/k8s-current  kubelet 1.36.2 on a private containerd, node IP 10.254.136.1
#   1.22            ../shared/k8s-1.22     kubelet 1.22 with the in-process dockershim on a private dockerd
# $PLEG_REAL_K8S_DIR replaces the kit directory (a directory with cluster.sh and bin/, like envtest's
# KUBEBUILDER_ASSETS). When neither exists, every verb but `check` fails saying what to provide.
# The kits share their ports (6443, 10250, ...): one cluster on the machine at a time.
#
#   bash test/support/real-cluster.sh install        apt packages every kit needs (only the missing ones)
#   bash test/support/real-cluster.sh up             start it (reuses a healthy one); prints KEY=VALUE lines
#   bash test/support/real-cluster.sh status         exit 0 when it is up and the node is registered
#   bash test/support/real-cluster.sh down           idempotent teardown (thaws a frozen runtime first)
#   bash test/support/real-cluster.sh check          exit 1 listing anything left behind
#   bash test/support/real-cluster.sh env            the kit's own keys, then the normalised ones below
#   bash test/support/real-cluster.sh freeze|thaw    SIGSTOP / SIGCONT the cluster's own runtime (containerd,
#                                                    or dockerd for 1.22: dockershim's runtime)
#   bash test/support/real-cluster.sh pod NAME       a busybox pod bound to the node (cluster.sh pod)
#   bash test/support/real-cluster.sh image-import FILE.tar
#                                                    load a docker-archive into the node's containerd
#                                                    (cluster.sh image-import; the 1.26 and 1.36 kits)
#   bash test/support/real-cluster.sh restart-apiserver [--flag=value ...]
#                                                    stop the kube-apiserver and start it again with the
#                                                    same command line (plus or replacing these flags)
#
# Normalised keys `env`/`up`/`status` print after the kit's own (the same for every kit): KIT, STATE_DIR,
# KUBECONFIG, NODE_NAME, CRI_SOCKET, RUNTIME (containerd|dockerd), RUNTIME_PID (what freeze stops),
# RUNTIME_LOG, KUBELET_PID, KUBELET_LOG, KUBELET_CONFIG, LOG_DIR, CA_CERT, CA_KEY, ETCD_URL,
# ETCD_CLIENT_CERT, ETCD_CLIENT_KEY.
#
# State: the kit's own directory variable (REALK8S_DIR=/tmp/realk8s, K136_DIR=/tmp/k136, K122_DIR=/tmp/k122).
# Processes are only ever signalled by recorded PID.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
# shellcheck source=closeInheritedFds.sh
source "$HERE/closeInheritedFds.sh"

log() { printf '[real-cluster] %s\n' "$*" >&2; }
die() { printf '[real-cluster] ERROR: %s\n' "$*" >&2; exit 1; }

# Per kit: its folder beside the checkout, the variables its cluster.sh reads for its state and an unpacked
# bin/, their default, the runtime the kubelet's CRI ends in, and that runtime's PID key in the kit's env file.
KIT="${PLEG_REAL_K8S_KIT:-1.26}"
case "$KIT" in
  1.26) KIT_FOLDER=k8s; STATE_VAR=REALK8S_DIR; BIN_VAR=REALK8S_BIN; STATE_DEFAULT=/tmp/realk8s; RUNTIME=containerd ;;
  1.36) KIT_FOLDER=k8s-current; STATE_VAR=K136_DIR; BIN_VAR=K136_BIN; STATE_DEFAULT=/tmp/k136; RUNTIME=containerd ;;
  1.22) KIT_FOLDER=k8s-1.22; STATE_VAR=K122_DIR; BIN_VAR=K122_BIN; STATE_DEFAULT=/tmp/k122; RUNTIME=dockerd ;;
  *) die "PLEG_REAL_K8S_KIT=$KIT: the kits are 1.26 (../shared/k8s), 1.36 (../shared/k8s-current) and 1.22 (../shared/k8s-1.22)" ;;
esac
RUNTIME_PID_KEY="$(printf '%s' "$RUNTIME" | tr '[:lower:]' '[:upper:]')_PID"
R="${!STATE_VAR:-$STATE_DEFAULT}"
export "$STATE_VAR=$R"
S="$R/run"
# What every kit needs (one `install` for all: `npm run test:integration` runs them one after the other);
# docker.io is the 1.22 kit's dockerd; prometheus ships promtool, which the alert-rule tests run
# (test/unit/deploy/alertRules.test.ts), and the Prometheus the in-cluster tests scrape with.
PACKAGES=(containerd runc containernetworking-plugins busybox-static openssl curl xz-utils iproute2 docker.io prometheus)

# The cluster kit: $PLEG_REAL_K8S_DIR when set (it must be complete), else ../shared/<folder> beside the repo.
kit_dir() {
  local d
  if [ -n "${PLEG_REAL_K8S_DIR:-}" ]; then
    d="$PLEG_REAL_K8S_DIR"
    [ -f "$d/cluster.sh" ] && [ -d "$d/bin" ] || die "PLEG_REAL_K8S_DIR=$d must hold cluster.sh and bin/ (the Kubernetes $KIT kit: etcd, kube-apiserver, kubelet, plain or .xz)"
  else
    d="$REPO/../shared/$KIT_FOLDER"
    [ -f "$d/cluster.sh" ] && [ -d "$d/bin" ] || die "no real Kubernetes $KIT to test on: provide ../shared/$KIT_FOLDER beside the checkout ($d), or set PLEG_REAL_K8S_DIR to a directory holding cluster.sh and bin/ (see ../shared/$KIT_FOLDER/README.md)"
  fi
  (cd "$d" && pwd)
}

# A kit whose bin/ holds plain executables is used in place; the shared ones are xz-compressed and
# unpacked by cluster.sh into $STATE_DIR/bin.
cluster() {
  local kit; kit="$(kit_dir)"
  if [ -z "${!BIN_VAR:-}" ] && [ -x "$kit/bin/kube-apiserver" ] && [ -x "$kit/bin/kubelet" ] && [ -x "$kit/bin/etcd" ]; then
    env "$BIN_VAR=$kit/bin" bash "$kit/cluster.sh" "$@"
  else
    bash "$kit/cluster.sh" "$@"
  fi
}

need_root() { [ "$(id -u)" = 0 ] || die "must run as root (the kubelet and containerd need it)"; }

alive() {
  local pid="$1" st
  [ -n "$pid" ] && [ -r "/proc/$pid/stat" ] || return 1
  st="$(sed -e 's/^.*) //' "/proc/$pid/stat" 2>/dev/null | cut -d' ' -f1)" || return 1
  [ -n "$st" ] && [ "$st" != Z ]
}

env_value() { sed -n "s/^$1=//p" "$R/env" 2>/dev/null | head -n1; }

cmd_install() {
  local missing=() p
  for p in "${PACKAGES[@]}"; do dpkg -s "$p" > /dev/null 2>&1 || missing+=("$p"); done
  # Any kubectl will do (Debian's is in kubernetes-client).
  command -v kubectl > /dev/null 2>&1 || missing+=(kubernetes-client)
  if [ ${#missing[@]} -eq 0 ]; then log "install: all packages present"; return 0; fi
  need_root
  export DEBIAN_FRONTEND=noninteractive
  apt-get -o DPkg::Lock::Timeout=600 update
  apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends "${missing[@]}"
}

healthy() {
  [ -f "$R/env" ] || return 1
  alive "$(env_value KUBE_APISERVER_PID)" && alive "$(env_value KUBELET_PID)" && alive "$(env_value "$RUNTIME_PID_KEY")" || return 1
  timeout 10 kubectl --kubeconfig "$(env_value KUBECONFIG)" get node "$(env_value NODE_NAME)" -o name > /dev/null 2>&1
}

# The kit's env file as it wrote it, then the keys every kit has under one name (see the header).
print_env() {
  cat "$R/env"
  printf 'KIT=%s\nSTATE_DIR=%s\nRUNTIME=%s\nRUNTIME_PID=%s\nRUNTIME_LOG=%s\n' \
    "$KIT" "$R" "$RUNTIME" "$(env_value "$RUNTIME_PID_KEY")" "$(env_value "$(printf '%s' "$RUNTIME" | tr '[:lower:]' '[:upper:]')_LOG")"
  printf 'CA_CERT=%s\nCA_KEY=%s\nETCD_CLIENT_CERT=%s\nETCD_CLIENT_KEY=%s\nETCD_URL=https://127.0.0.1:12379\nKUBELET_CONFIG=%s\n' \
    "$S/pki/ca.crt" "$S/pki/ca.key" "$S/pki/apiserver-etcd-client.crt" "$S/pki/apiserver-etcd-client.key" "$S/kubelet-config.yaml"
}

cmd_up() {
  kit_dir > /dev/null
  need_root
  if healthy; then
    log "a healthy cluster is already up in $R: reusing it"
    print_env
    return 0
  fi
  if ! (close_inherited_fds; cluster up) > /dev/null; then
    log "up failed; taking down what was started"
    cluster down || true
    die "cluster.sh up failed (logs were in $S/logs)"
  fi
  print_env
}

# The kubelet reports "PLEG is not healthy" about 3.3 minutes after the freeze (runtimeRequestTimeout 30 s;
# on 1.22 the Node shows it about 4 min after, see the kit's README).
cmd_freeze() {
  local pid; pid="$(env_value "$RUNTIME_PID_KEY")"
  alive "$pid" || die "no running $RUNTIME of the cluster (is it up?)"
  kill -STOP "$pid"
  log "$RUNTIME $pid stopped (SIGSTOP)"
}

cmd_thaw() {
  local pid; pid="$(env_value "$RUNTIME_PID_KEY")"
  alive "$pid" || die "no running $RUNTIME of the cluster (is it up?)"
  kill -CONT "$pid"
  log "$RUNTIME $pid continued (SIGCONT): the node is Ready again about 10 s later"
}

# Replays the running kube-apiserver's own command line (cluster.sh starts it with one variable set).
cmd_restart_apiserver() {
  local pid pidfile args=() extra=("$@") a e name keep i new
  pid="$(env_value KUBE_APISERVER_PID)"
  pidfile="$S/pids/kube-apiserver.pid"
  alive "$pid" || die "no running kube-apiserver (is the cluster up?)"
  mapfile -d '' args < "/proc/$pid/cmdline"
  new=("${args[0]}")
  for ((i = 1; i < ${#args[@]}; i++)); do
    a="${args[$i]}"; name="${a%%=*}"; keep=1
    for e in "${extra[@]}"; do [ "${e%%=*}" = "$name" ] && keep=0; done
    [ "$keep" = 1 ] && new+=("$a")
  done
  new+=("${extra[@]}")
  kill -TERM "$pid"
  for i in $(seq 1 100); do alive "$pid" || break; sleep 0.1; done
  alive "$pid" && { kill -KILL "$pid"; sleep 0.2; }
  (close_inherited_fds; exec setsid env REALK8S_ALLOW_LOOPBACK_NODE_PROXY=1 "${new[@]}" >> "$S/logs/kube-apiserver.log" 2>&1 < /dev/null) &
  pid=$!
  echo "$pid" > "$pidfile"
  sed -i "s/^KUBE_APISERVER_PID=.*/KUBE_APISERVER_PID=$pid/" "$R/env"
  log "kube-apiserver restarted (pid $pid)${extra[*]:+ with ${extra[*]}}"
}

case "${1:-}" in
  install) cmd_install ;;
  up) cmd_up ;;
  status) healthy && print_env ;;
  down) if [ -d "$S" ] || [ -f "$R/env" ]; then need_root; cluster down; else log "down: nothing to do"; fi ;;
  check) if [ -d "$S" ] || [ -f "$R/env" ] || kit_dir > /dev/null 2>&1; then cluster check; fi ;;
  env) [ -f "$R/env" ] || die "the cluster is not up: bash $0 up"; print_env ;;
  freeze) cmd_freeze ;;
  thaw) cmd_thaw ;;
  pod) shift; cluster pod "$@" ;;
  image-import) shift; cluster image-import "$@" ;;
  restart-apiserver) shift; cmd_restart_apiserver "$@" ;;
  *) echo "usage: $0 install|up|status|down|check|env|freeze|thaw|pod NAME|image-import FILE.tar|restart-apiserver [--flag=value ...]" >&2; exit 2 ;;
esac
