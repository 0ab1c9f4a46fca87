#!/bin/bash
# CPU test (ctest label `validation`): validation/real_layers/real_models_b8.trace is what
# make_trace.sh writes from today's lowering of the three real-weight models, so the GPU
# campaign measures the shapes the simulator runs. Skipped (77) when the models' weights
# are not fetched (scripts/fetch_models.sh).
# usage: real_layers_trace.sh SOURCE_DIR STCSIM
set -u
src=$1 stcsim=$2
for m in ppocrv4_rec resnet34_face rdn_esrgan_thick; do
  "$stcsim" models | grep -q "^  $m"$'\t'"real weights"$'\t'"fetched" || {
    echo "skipped: $m not fetched"
    exit 77
  }
done
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
"$src/validation/real_layers/make_trace.sh" "$stcsim" "$tmp/now.trace" || exit 1
diff -u "$src/validation/real_layers/real_models_b8.trace" "$tmp/now.trace" || {
  echo "FAIL: the committed trace differs from the models' lowering: rerun make_trace.sh"
  exit 1
}
echo "real-layer trace: as committed"
