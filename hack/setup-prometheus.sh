#!/bin/sh
# setup-prometheus.sh installs Debian's prometheus for the dashboards' test (cmd/pokerfloor's
# TestDashboardsOnPrometheus: a real Prometheus scrapes a local tournament's /metrics and answers
# every query of every Grafana panel in charts/pokerfloor/dashboards), with apt-get, if it is not
# installed already. It prints the binary's path. The package's own service is left stopped: the
# test starts its own server on a free port with a configuration of its own.
#
# It needs root (or sudo) the first time; later runs find the binary and change nothing.
set -eu

. "$(dirname "$0")/apt-lib.sh"

if path=$(find_command prometheus); then
	echo "$path"
	exit 0
fi

apt_root setup-prometheus prometheus
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
find_command prometheus || { echo "setup-prometheus: apt-get installed prometheus but it is not on PATH" >&2; exit 1; }
