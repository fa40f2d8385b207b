#!/usr/bin/env bash
# A real single-node Kubernetes 1.26 (etcd + kube-apiserver + kubelet on a private containerd) for the
# real-cluster tests, the e2e and `npm run demo -- --real-cluster`. A thin wrapper around the cluster kit
# in ../shared/k8s (see its README), or in $PLEG_REAL_K8S_DIR: a directory with cluster.sh and bin/ (like
# envtest's KUBEBUILDER_ASSETS). When neither exists, every verb but `check` fails saying what to provide.
#
#   bash test/support/real-cluster.sh install        apt packages the cluster needs (only the missing ones)
#   bash test/support/real-cluster.sh up             start it (reuses a healthy one); prints KEY=VALUE lines
#   bash test/support/real-cluster.sh status         exit 0 when it is up and the node is registered
#   bash test/support/real-cluster.sh down           idempotent teardown (thaws a frozen runtime first)
#   bash test/support/real-cluster.sh check          exit 1 listing anything left behind
#   bash test/support/real-cluster.sh env            KUBECONFIG, NODE_NAME, PIDs, CA files, ...
#   bash test/support/real-cluster.sh freeze|thaw    SIGSTOP / SIGCONT the cluster's own containerd
#   bash test/support/real-cluster.sh pod NAME       a busybox pod bound to the node (cluster.sh pod)
#   bash test/support/real-cluster.sh restart-apiserver [--flag=value ...]
#                                                    stop the kube-apiserver and start it again with the
#                                                    same command line (plus or replacing these flags)
#
# State: $REALK8S_DIR (default /tmp/realk8s). Processes are only ever signalled by recorded PID.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
# shellcheck source=closeInheritedFds.sh
source "$HERE/closeInheritedFds.sh"
R="${REALK8S_DIR:-/tmp/realk8s}"
export REALK8S_DIR="$R"
S="$R/run"
PACKAGES=(containerd runc containernetworking-plugins busybox-static openssl curl xz-utils iproute2)

log() { printf '[real-cluster] %s\n' "$*" >&2; }
die() { printf '[real-cluster] ERROR: %s\n' "$*" >&2; exit 1; }

# The cluster kit: $PLEG_REAL_K8S_DIR when set (it must be complete), else ../shared/k8s beside the repo.
kit_dir() {
  local d
  if [ -n "${PLEG_REAL_K8S_DIR:-}" ]; then
    d="$PLEG_REAL_K8S_DIR"
    [ -f "$d/cluster.sh" ] && [ -d "$d/bin" ] || die "PLEG_REAL_K8S_DIR=$d must hold cluster.sh and bin/ (etcd, kube-apiserver, kubelet 1.26, plain or .xz)"
  else
    d="$REPO/../shared/k8s"
    [ -f "$d/cluster.sh" ] && [ -d "$d/bin" ] || die "no real Kubernetes to test on: provide ../shared/k8s beside the checkout ($d), or set PLEG_REAL_K8S_DIR to a directory holding cluster.sh and bin/ (etcd 3.5, kube-apiserver and kubelet 1.26; see ../shared/k8s/README.md)"
  fi
  (cd "$d" && pwd)
}

# A kit whose bin/ holds plain executables is used in place; the shared one is xz-compressed and
# unpacked by cluster.sh into $REALK8S_DIR/bin.
cluster() {
  local kit; kit="$(kit_dir)"
  if [ -z "${REALK8S_BIN:-}" ] && [ -x "$kit/bin/kube-apiserver" ] && [ -x "$kit/bin/kubelet" ] && [ -x "$kit/bin/etcd" ]; then
    REALK8S_BIN="$kit/bin" bash "$kit/cluster.sh" "$@"
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
  alive "$(env_value KUBE_APISERVER_PID)" && alive "$(env_value KUBELET_PID)" && alive "$(env_value CONTAINERD_PID)" || return 1
  timeout 10 kubectl --kubeconfig "$(env_value KUBECONFIG)" get node "$(env_value NODE_NAME)" -o name > /dev/null 2>&1
}

print_env() {
  cat "$R/env"
  printf 'REALK8S_DIR=%s\nCA_CERT=%s\nCA_KEY=%s\nETCD_CLIENT_CERT=%s\nETCD_CLIENT_KEY=%s\nETCD_URL=https://127.0.0.1:12379\nKUBELET_CONFIG=%s\n' \
    "$R" "$S/pki/ca.crt" "$S/pki/ca.key" "$S/pki/apiserver-etcd-client.crt" "$S/pki/apiserver-etcd-client.key" "$S/kubelet-config.yaml"
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

cmd_freeze() {
  local pid; pid="$(env_value CONTAINERD_PID)"
  alive "$pid" || die "no running containerd of the cluster (is it up?)"
  kill -STOP "$pid"
  log "containerd $pid stopped (SIGSTOP): the kubelet reports \"PLEG is not healthy\" after about 3.3 minutes"
}

cmd_thaw() {
  local pid; pid="$(env_value CONTAINERD_PID)"
  alive "$pid" || die "no running containerd of the cluster (is it up?)"
  kill -CONT "$pid"
  log "containerd $pid continued (SIGCONT): the node is Ready again about 10 s later"
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
  restart-apiserver) shift; cmd_restart_apiserver "$@" ;;
  *) echo "usage: $0 install|up|status|down|check|env|freeze|thaw|pod NAME|restart-apiserver [--flag=value ...]" >&2; exit 2 ;;
esac
