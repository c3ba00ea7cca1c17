# e2e: the Debian package, installed as a user installs it. cpack builds idemlab_<version>_<arch>.deb
# from this build; debootstrap makes a fresh Debian 12 root (minbase: no idemlab, no man-db);
# inside it `apt-get install ./idemlab_*.deb` pulls the declared dependencies from Debian's
# archive, then idemlab --version runs, man idemlab opens the page, and bash-completion's own
# loader finds the completion: idemlab sel<TAB> offers select-insert and select-for-update.
# Needs root (chroot) and Debian's archive, as scripts/install-deps does. Not under the
# sanitizers: it checks the packaging, and the sanitizer build is not what a package ships.
source "$(dirname "$0")/../lib.sh"
build=$(dirname "$IDEMLAB")
if grep -q "^IDEMLAB_SANITIZE:BOOL=ON" "$build/CMakeCache.txt"; then
  echo "skipped: the sanitizer build is not packaged"
  exit 77
fi
[ "$(id -u)" = 0 ] || { fail "needs root for chroot"; finish; }

expect_exit 0 cpack -G DEB --config "$build/CPackConfig.cmake" -B "$work/cpack"
deb=$(ls "$work"/cpack/idemlab_*_*.deb 2>/dev/null | head -1)
[ -n "$deb" ] || { fail "cpack made no idemlab_*.deb: $out $err"; finish; }
expect_contains "$(dpkg-deb -f "$deb" Depends)" "libsqlite3-0"
expect_contains "$(dpkg-deb -c "$deb")" "./usr/share/man/man1/idemlab.1.gz"
expect_contains "$(dpkg-deb -c "$deb")" "./usr/share/doc/idemlab/docs/replication.md"

root=$work/root
expect_exit 0 debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian
cp /etc/resolv.conf "$root/etc/resolv.conf"
cp "$deb" "$root/tmp/"
in_root() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"; }
expect_exit 1 in_root test -e /usr/bin/idemlab
expect_exit 0 in_root apt-get update -q
expect_exit 0 in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
  --no-install-recommends "/tmp/$(basename "$deb")" man-db bash-completion
expect_exit 0 in_root idemlab --version
expect_contains "$out" "0."
expect_exit 0 in_root env MANWIDTH=80 man -P cat idemlab
expect_contains "$out" "idemlab consume"
expect_contains "$out" "EXIT STATUS"
expect_exit 0 in_root bash -c 'source /usr/share/bash-completion/bash_completion
  __load_completion idemlab || exit 1
  COMP_LINE="idemlab sel"; COMP_POINT=${#COMP_LINE}; _idemlab; printf "%s\n" "${COMPREPLY[@]}"'
expect_equal "$out" "$(printf 'select-insert\nselect-for-update')" "bash completion in the fresh root"
expect_exit 0 in_root test -f /usr/share/zsh/vendor-completions/_idemlab
expect_exit 0 in_root test -f /usr/share/fish/vendor_completions.d/idemlab.fish
# A first ledger, in the fresh root, on the embedded default.
expect_exit 0 in_root sh -c 'cd /tmp && idemlab init && idemlab select-insert --biz-seq r1 \
  --from alice --to bob --amount 1.00 && idemlab audit'
finish
