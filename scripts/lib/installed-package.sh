# Sourced by the package tests (test-vp-example.sh, test-foreign-vp.sh,
# test-cmake-consumer.sh, test-no-build-paths.sh) with their arguments:
# <build dir> [<source dir>]. Sets build, src and tmp (removed on exit),
# installs the package from the build tree into $tmp/prefix, and sets
# `sanitize`: the CMake flags a consumer needs when the installed libraries
# are instrumented (SYNCRON_VP_SANITIZE, set by ctest in a sanitizer build).
build=$(cd "${1:?usage: $0 <build dir> [<source dir>]}" && pwd)
src=$(cd "${2:-$(dirname "$0")/..}" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cmake --install "$build" --prefix "$tmp/prefix" > "$tmp/install.log"
sanitize=()
if [ -n "${SYNCRON_VP_SANITIZE:-}" ]; then
  sanitize=(-DCMAKE_CXX_FLAGS="-fsanitize=$SYNCRON_VP_SANITIZE" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=$SYNCRON_VP_SANITIZE")
fi
