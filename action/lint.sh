#!/usr/bin/env bash
# The Action's second step: lints AASA_AUDIT_FILES (or every association file of every kind the
# repository tracks under .well-known/, by the names `aasa-audit lint --names` gives) with aasa-audit, as GitHub annotations or into a SARIF file, and
# fails the step at AASA_AUDIT_FAIL_ON.
set -euo pipefail
format="${AASA_AUDIT_FORMAT:-github}"
fail_on="${AASA_AUDIT_FAIL_ON:-error}"
# A list input: one item a line; a single line without a line break that is not a file as a
# whole is split at spaces (the form the files input had).
list() {
  local text=$1 item
  if [[ "$text" != *$'\n'* && ! -e "$text" ]]; then
    read -r -a items <<< "$text"
    for item in "${items[@]}"; do printf '%s\n' "$item"; done
  else
    while IFS= read -r item; do
      item="${item#"${item%%[![:space:]]*}"}"
      item="${item%"${item##*[![:space:]]}"}"
      [ -n "$item" ] && printf '%s\n' "$item"
    done <<< "$text"
  fi
  return 0
}
options=()
while IFS= read -r id; do options+=(--app-id "$id"); done < <(list "${AASA_AUDIT_APP_IDS:-}")
while IFS= read -r app; do options+=(--android "$app"); done < <(list "${AASA_AUDIT_ANDROID:-}")
# args: one argument a line, as given (no splitting at spaces: a value may hold them).
while IFS= read -r argument; do [ -n "$argument" ] && options+=("$argument"); done <<< "${AASA_AUDIT_ARGS:-}"
files=()
if [ -n "${AASA_AUDIT_FILES:-}" ]; then
  while IFS= read -r file; do files+=("$file"); done < <(list "$AASA_AUDIT_FILES")
else
  # Every kind's served name, from aasa-audit's own registry (`lint --names`).
  names=()
  while IFS= read -r name; do names+=("$name"); done < <(aasa-audit lint --names)
  globs=()
  for name in "${names[@]}"; do globs+=("*.well-known/$name"); done
  while IFS= read -r file; do files+=("$file"); done < <(git ls-files -- "${globs[@]}" 2>/dev/null || true)
fi
if [ ${#files[@]} -eq 0 ]; then
  echo "::warning::aasa-audit found no association file under .well-known/ to lint (looked for: ${names[*]:-}; set the files input)"
  exit 0
fi
case "$format" in
  github)
    aasa-audit lint --format github --fail-on "$fail_on" "${options[@]}" -- "${files[@]}"
    ;;
  sarif)
    sarif="${AASA_AUDIT_SARIF_FILE:-aasa-audit.sarif}"
    status=0
    aasa-audit lint --format sarif --fail-on "$fail_on" "${options[@]}" -- "${files[@]}" > "$sarif" || status=$?
    echo "sarif-file=$sarif" >> "${GITHUB_OUTPUT:-/dev/null}"
    exit "$status"
    ;;
  *)
    echo "::error::the format input must be github or sarif, not '$format'"
    exit 2
    ;;
esac
