#!/usr/bin/env bash
# Runs the journeys in Firefox ESR and WebKitGTK (frontend/e2e/engines,
# playwright.engines.config.ts). Debian's packages are installed with apt
# when missing (root): firefox-esr, webkit2gtk-driver (WebKitWebDriver and
# the MiniBrowser of libwebkit2gtk-4.1) and xvfb (WebKitGTK needs a display).
# An engine that apt cannot install is skipped, and a boxed warning on
# standard error says so before and after the test output.
#
# Extra arguments go to Playwright (a spec, --project webkit, ...).
set -euo pipefail
cd "$(dirname "$0")/../frontend"

FIREFOX=${FIREFOX:-/usr/bin/firefox-esr}
WEBKIT_WEBDRIVER=${WEBKIT_WEBDRIVER:-/usr/bin/WebKitWebDriver}

box() {
  local width=80 line
  line=$(printf '%*s' "$width" '' | tr ' ' '!')
  {
    echo
    echo "$line"
    for l in "$@"; do printf '!! %-*s !!\n' $((width - 6)) "$l"; done
    echo "$line"
    echo
  } >&2
}

have_firefox() { [[ -x "$FIREFOX" ]]; }
have_webkit() { [[ -x "$WEBKIT_WEBDRIVER" ]] && command -v xvfb-run >/dev/null; }

if ! have_firefox || ! have_webkit; then
  echo "Installing Debian's firefox-esr, webkit2gtk-driver and xvfb (apt)…"
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq firefox-esr webkit2gtk-driver xvfb >/dev/null; } ||
    echo "e2e-engines: apt could not install every package (see above)." >&2
fi

projects=()
missing=()
if have_firefox; then projects+=(--project firefox); else missing+=("Firefox ESR ($FIREFOX): package firefox-esr"); fi
if have_webkit; then projects+=(--project webkit); else missing+=("WebKitGTK ($WEBKIT_WEBDRIVER, xvfb-run): webkit2gtk-driver, xvfb"); fi

msg=()
if ((${#missing[@]})); then
  msg=("WARNING: apt could not install a browser engine; its journeys are SKIPPED:" "${missing[@]}")
  box "${msg[@]}"
fi
if ((${#projects[@]} == 0)); then
  exit 0
fi

# Playwright's --project takes every name after it: the caller's arguments
# go first, and a caller who names projects picks them.
if [[ " $* " == *" --project"* ]]; then projects=(); fi

status=0
if have_webkit; then
  # A display for the MiniBrowser; -a picks a free display number.
  xvfb-run -a -s '-screen 0 1280x1024x24' npx --yes playwright test -c playwright.engines.config.ts "$@" "${projects[@]}" || status=$?
else
  npx --yes playwright test -c playwright.engines.config.ts "$@" "${projects[@]}" || status=$?
fi
if ((${#msg[@]})); then box "${msg[@]}"; fi
exit "$status"
