#!/usr/bin/env bash
# The commit a build reports (ci/commit-override): a copy of the tree whose files are the ones
# ci/carry-deps hashed reports the commit recorded beside them, wherever it sits (here in a
# checkout of an older commit, as on the lent GPU machine); once a file changes, the checkout's own
# HEAD; and without a record, HEAD.
#   commit_label.sh SOURCE_DIR
set -euo pipefail
source_dir="$1"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
mkdir ci
cp "$source_dir/ci/tree-hash" "$source_dir/ci/commit-override" ci/
git init -q . && git config user.email t@t && git config user.name t
echo one >file.txt
git add -A && git commit -q -m older
label() {
  # shellcheck disable=SC1091
  source ci/commit-override
  echo "${commit_override[*]}"
}
expect() {
  local what=$1 wanted=$2 got
  got="$(label)"
  if [[ $got != "$wanted" ]]; then
    echo "FAIL: $what: wanted '$wanted', got '$got'" >&2
    exit 1
  fi
}
expect "no record" "-UHANDOFF_GIT_COMMIT_OVERRIDE"
echo two >file.txt # the tree the record was made of: newer than the checkout's HEAD
mkdir .deps
echo "abc123456789" >.deps/git-commit
git ls-files -z >.deps/tree-files
ci/tree-hash .deps/tree-files >.deps/tree-hash
expect "the recorded tree" "-DHANDOFF_GIT_COMMIT_OVERRIDE=abc123456789"
echo three >file.txt
expect "a changed file" "-UHANDOFF_GIT_COMMIT_OVERRIDE"
echo two >file.txt
mv file.txt gone.txt
expect "a missing file" "-UHANDOFF_GIT_COMMIT_OVERRIDE"
echo "PASS: the commit label follows the tree's files"
