#!/usr/bin/env bash
# Installs what a fresh machine of this kind lacks: Debian's C libraries for the system-library
# targets, the editors the front ends are tested in, and the pinned Python packages the integration
# tests and the Python client's checks use. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

# libsqlite3-dev and libssl-dev (libcrypto, and libssl for the HTTP client's TLS) back the system-library
# targets; pkg-config finds them.
# neovim and emacs-nox run the editor front ends' tests (clients/nvim, clients/emacs); elpa-use-package lets
# the test of the Emacs README's use-package setup run on Emacs 28 (Emacs 29 has use-package built in).
apt_packages=(libsqlite3-dev libssl-dev pkg-config neovim emacs-nox elpa-use-package)
missing=()
for package in "${apt_packages[@]}"; do
    dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "Installing Debian packages: ${missing[*]}"
    if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
fi

if [ -f Tests/integration/requirements.txt ]; then
    python3 -m pip install --quiet --disable-pip-version-check -r Tests/integration/requirements.txt
fi
# The Python client's checks: mypy (pinned) for --strict on the package, its tests and examples.
python3 -m pip install --quiet --disable-pip-version-check -r clients/python/requirements-dev.txt
