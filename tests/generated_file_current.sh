#!/usr/bin/env bash
# CTests Docs.ContactLawTableIsCurrent and Docs.ParameterPageIsCurrent: a committed generated
# page (docs/contact-law-table.md, docs/parameters.md) is exactly what its script
# (scripts/contact-law-table.sh, scripts/parameters-page.sh) writes from the built program,
# so that the page cannot fall behind the laws or the parameters it documents.
# Usage: generated_file_current.sh SCRIPT COMMITTED_FILE BUILD_DIR WORK_DIR
set -euo pipefail
script=$1; committed=$2; build=$3; work=$4
source "$(dirname "$0")/shell_checks.sh"
fresh_directory "$work"
BUILD="$build" bash "$script" "$work/generated"
expect_file "$work/generated"
expect_file "$committed"
if ! diff -u "$committed" "$work/generated" > "$work/difference"; then
  head -n 40 "$work/difference" >&2
  fail "$(basename "$committed") is not what scripts/$(basename "$script") writes now:" \
       "run bash scripts/$(basename "$script") and commit the result"
fi
