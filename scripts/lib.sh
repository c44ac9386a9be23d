# Shared by the scripts: install Debian packages when missing, if we can; run builds quietly but not silently.

# as_root CMD...: runs CMD as root (directly, or through sudo without a password); fails otherwise.
as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo "$@"
  else return 1
  fi
}

apt_updated=""
# ensure_package BINARY PACKAGE: installs PACKAGE from Debian's packages when BINARY is missing.
ensure_package() {
  local binary=$1 package=$2
  if command -v "$binary" >/dev/null 2>&1 || [ -x "/usr/bin/$binary" ] || [ -x "/usr/sbin/$binary" ]; then return 0; fi
  echo "==> $binary not found: installing Debian package $package"
  if [ -z "$apt_updated" ]; then
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq || return 1
    apt_updated=yes
  fi
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$package" >/dev/null || return 1
}

# quiet_build LOG CMD...: runs a build with its output in LOG; on failure prints LOG's end and fails.
# mvn -q prints its [ERROR] lines on stdout, so a build sent to /dev/null failed without a word.
quiet_build() {
  local log=$1
  shift
  mkdir -p "$(dirname "$log")"
  if ! "$@" >"$log" 2>&1; then
    echo "==> the build failed; the end of $log:" >&2
    tail -n 40 "$log" >&2
    return 1
  fi
}
