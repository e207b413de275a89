#!/usr/bin/env bash
# Debian packages the tests use: chromium (browser tests) and a font that draws card suits.
# Installs only what is missing; without root or apt the browser tests skip with a reason.
set -euo pipefail
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || need+=(fonts-dejavu-core)
[ ${#need[@]} -eq 0 ] && exit 0
if ! command -v apt-get >/dev/null; then
  echo "note: cannot install ${need[*]} (no apt-get); browser tests will be skipped" >&2
  exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then sudo="sudo"; else
    echo "note: run as root to install ${need[*]}; browser tests will be skipped" >&2
    exit 0
  fi
fi
echo "installing Debian packages: ${need[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
