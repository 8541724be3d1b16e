#!/usr/bin/env bash
# podman, as podman-compose 1.0.3 (Debian bookworm's) should call it for deploy/compose.yaml.
# That version puts every container on the project's network even with `network_mode: host`
# (`--network host --net <project>_default --network-alias <service>`), which podman refuses;
# podman-compose 1.0.4 fixed it. This drops the two extra flags from `run` when the host
# network is asked for, and answers "exists" for the project network so none is created.
# Everything else goes to $PODMAN unchanged.
set -euo pipefail
podman=${PODMAN:?set PODMAN to the podman to run}
if [ "${1:-}" = network ] && [ "${2:-}" = exists ]; then exit 0; fi
if [ "${1:-}" = run ] && [[ " $* " == *" --network host "* ]]; then
  args=()
  skip=0
  for arg in "$@"; do
    if [ "$skip" = 1 ]; then skip=0; continue; fi
    case "$arg" in --net|--network-alias) skip=1; continue ;; esac
    args+=("$arg")
  done
  exec "$podman" "${args[@]}"
fi
exec "$podman" "$@"
