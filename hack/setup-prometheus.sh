#!/bin/sh
# setup-prometheus.sh installs Debian's prometheus for the dashboards' test (cmd/pokerfloor's
# TestDashboardsOnPrometheus: a real Prometheus scrapes a local tournament's /metrics and answers
# every query of every Grafana panel in charts/pokerfloor/dashboards), with apt-get, if it is not
# installed already. It prints the binary's path. The package's own service is left stopped: the
# test starts its own server on a free port with a configuration of its own.
#
# It needs root (or sudo) the first time; later runs find the binary and change nothing.
set -eu

find_prometheus() {
	if command -v prometheus >/dev/null 2>&1; then
		command -v prometheus
		return 0
	fi
	return 1
}

if path=$(find_prometheus); then
	echo "$path"
	exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null 2>&1; then
		SUDO=sudo
	else
		echo "setup-prometheus: prometheus is missing and installing it needs root (or sudo)" >&2
		exit 1
	fi
fi
export DEBIAN_FRONTEND=noninteractive
# policy-rc.d refuses to start services during the install (the package would start its own
# prometheus on :9090); a file already there is the machine's own and is kept.
own_policy=""
if [ ! -e /usr/sbin/policy-rc.d ]; then
	printf '#!/bin/sh\nexit 101\n' | $SUDO tee /usr/sbin/policy-rc.d >/dev/null
	$SUDO chmod +x /usr/sbin/policy-rc.d
	own_policy=1
fi
status=0
{ $SUDO apt-get update && $SUDO apt-get install -y --no-install-recommends prometheus; } || status=$?
if [ -n "$own_policy" ]; then
	$SUDO rm -f /usr/sbin/policy-rc.d
fi
[ "$status" -eq 0 ] || exit "$status"
find_prometheus || { echo "setup-prometheus: apt-get installed prometheus but it is not on PATH" >&2; exit 1; }
