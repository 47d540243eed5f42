#!/bin/sh
# setup-chromium.sh installs Debian's chromium for the browser tests (engine/tableserver's chromedp
# test), with apt-get, if it is not installed already. It prints the browser's path.
#
# It needs root (or sudo) the first time; later runs find the browser and change nothing.
set -eu

. "$(dirname "$0")/apt-lib.sh"
browsers="chromium chromium-browser google-chrome"

# shellcheck disable=SC2086 # the list is split on purpose
if path=$(find_command $browsers); then
	echo "$path"
	exit 0
fi

apt_root setup-chromium chromium
$SUDO apt-get update
$SUDO apt-get install -y --no-install-recommends chromium fonts-dejavu-core
find_command $browsers || { echo "setup-chromium: apt-get installed chromium but it is not on PATH" >&2; exit 1; }
