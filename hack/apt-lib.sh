# Shared by hack/setup-chromium.sh and hack/setup-prometheus.sh (sourced, not run; POSIX sh): a
# Debian package installed with apt-get when its command is missing.

# find_command CMD... prints the path of the first CMD on PATH; it fails when none is.
find_command() {
	for c in "$@"; do
		if command -v "$c" >/dev/null 2>&1; then
			command -v "$c"
			return 0
		fi
	done
	return 1
}

# apt_root SCRIPT WHAT sets SUDO to what runs apt-get as root: nothing for root, sudo otherwise; it
# exits, naming SCRIPT and WHAT, when neither can.
apt_root() {
	SUDO=""
	if [ "$(id -u)" -ne 0 ]; then
		if command -v sudo >/dev/null 2>&1; then
			SUDO=sudo
		else
			echo "$1: $2 is missing and installing it needs root (or sudo)" >&2
			exit 1
		fi
	fi
	export DEBIAN_FRONTEND=noninteractive
}
