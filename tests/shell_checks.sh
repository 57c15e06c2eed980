# Helpers for the shell CTests (tests/*.sh): source this file after `set -euo pipefail`.
# Every check either passes silently or ends the script with exit status 1 and a line saying
# what failed. They replace the idioms that can pass by mistake under `set -e`: a negated
# command (`! grep ...`, which `set -e` ignores), `cmd || status=$?` inside a `&&` chain, and
# `cmd | grep -q` (a SIGPIPE of cmd fails the pipeline under pipefail).

PYTHON=/usr/bin/python3

# the script's stderr, kept on descriptor 9 so that a check's message is seen even when the
# check's command has its stderr redirected (expect_status 2 cmd 2> err.txt)
exec 9>&2

fail() {
  echo "FAIL: $*" >&9
  exit 1
}

# fresh_directory DIR: DIR emptied (removed and created again); nothing of an earlier run
# can make a check pass.
fresh_directory() {
  rm -rf "$1"
  mkdir -p "$1"
}

# expect_status N COMMAND...: COMMAND exits with status N.
expect_status() {
  local want=$1 got
  shift
  if "$@"; then got=0; else got=$?; fi
  [ "$got" -eq "$want" ] || fail "exit status $got, expected $want: $*"
}

# expect_file FILE: FILE exists and is not empty.
expect_file() {
  [ -s "$1" ] || fail "$1 is missing or empty"
}

# expect_no_file FILE: FILE does not exist.
expect_no_file() {
  if [ -e "$1" ]; then fail "$1 exists"; fi
}

# expect_match REGEX FILE: a line of FILE matches the basic regular expression REGEX.
expect_match() {
  grep -q -e "$1" "$2" || fail "no line of $2 matches '$1'"
}

# expect_no_match REGEX FILE: no line of FILE matches REGEX.
expect_no_match() {
  if grep -q -e "$1" "$2"; then fail "$2 has a line matching '$1'"; fi
}
