#!/bin/sh
# Installs Debian's Chromium for test/browser.test.ts; idempotent (does nothing when chromium is present).
# Playwright's own browser download cannot work on this machine kind, so the test drives
# /usr/bin/chromium through playwright-core's executablePath instead.
set -eu
if command -v chromium >/dev/null 2>&1; then
  echo "install-browser: $(chromium --version 2>/dev/null || echo chromium) already installed"
  exit 0
fi
SUDO=""
if [ "$(id -u)" != "0" ] && command -v sudo >/dev/null 2>&1; then SUDO="sudo"; fi
$SUDO apt-get update
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends chromium
echo "install-browser: installed $(chromium --version)"
