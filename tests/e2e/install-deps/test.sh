# e2e: what the first command a newcomer runs installs. scripts/demo asks scripts/install-deps
# for the build's packages alone: no browser, no database or queue server, no Galera, no
# ZooKeeper; scripts/test asks for all of them. Read with --print, which installs nothing.
source "$(dirname "$0")/../lib.sh"
expect_exit 0 "$ROOT/scripts/install-deps" --print demo
demo=$out
expect_exit 0 "$ROOT/scripts/install-deps" --print
all=$out
for package in chromium chromium-driver galera-4 zookeeperd postgresql-15 mariadb-server \
    redis-server rabbitmq-server debootstrap zsh fish; do
  grep -qx "$package" <<<"$demo" && fail "the demo installs $package"
  grep -qx "$package" <<<"$all" || fail "the tests do not install $package"
done
for package in $demo; do
  grep -qx "$package" <<<"$all" || fail "the demo installs $package, the tests do not"
done
grep -q 'install-deps" demo' "$ROOT/scripts/demo" || fail "scripts/demo does not ask for the demo's packages"
grep -q 'build" demo' "$ROOT/scripts/demo" || fail "scripts/demo does not build idemlab alone"
expect_exit 2 "$ROOT/scripts/install-deps" tests
expect_one_error_line
expect_exit 2 "$ROOT/scripts/build" everything
expect_one_error_line
finish
