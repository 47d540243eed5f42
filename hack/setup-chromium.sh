#!/bin/sh
# setup-chromium.sh installs Debian's chromium for the browser tests (engine/tableserver's chromedp
# test), with apt-get, if it is not installed already. It prints the browser's path.
#
# It needs root (or sudo) the first time; later runs find the browser and change nothing.
set -eu

find_browser() {
	for b in chromium chromium-browser google-chrome; do
		if command -v "$b" >/dev/null 2>&1; then
			command -v "$b"
			return 0
		fi
	done
	return 1
}

if path=$(find_browser); then
	echo "$path"
	exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null 2>&1; then
		SUDO=sudo
	else
		echo "setup-chromium: chromium is missing and installing it needs root (or sudo)" >&2
		exit 1
	fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
$SUDO apt-get install -y --no-install-recommends chromium fonts-dejavu-core
find_browser || { echo "setup-chromium: apt-get installed chromium but it is not on PATH" >&2; exit 1; }
