// Trace format v1: write -> read gives the same trace, payload included, and the payload
// decodes (through models/sparse) back to the pruned weights.
#include <catch2/catch.hpp>
#include <cstring>

#include "models/numerics/float_format.h"
#include "models/sparse/bsr.h"
#include "models/sparse/metadata.h"
#include "models/sparse/nm_compress.h"
#include "tests/workloads/trace_test_util.h"
#include "workloads/trace/trace.h"
#include "workloads/trace/trace_builder.h"
#include "workloads/zoo/zoo.h"

using namespace stcsim;
using namespace stcsim::workloads;
using stcsim::workloads::testing::ScratchDir;

namespace {

std::uint32_t fp16(float v) {
  return numerics::encode(numerics::FloatFormat::FP16, double(v), numerics::Rounding::NearestEven);
}

std::uint32_t fp32(float v) {
  std::uint32_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

// A hand-made trace holding every kind of op and payload.
Trace every_kind() {
  Trace t;
  t.model = "handmade";
  t.synthetic = false;
  t.dtype = "fp16";
  t.source = "unit test # with a hash and  two spaces";
  t.prune = "mixed";
  t.lowering = "batch=2 seq=3";
  TraceOp dense;
  dense.name = "dense_no_payload";
  dense.m = 6;
  dense.n = 8;
  dense.k = 16;
  t.ops.push_back(dense);

  TraceOp dv = dense;
  dv.name = "dense_fp32_values";
  dv.dtype = "tf32";
  dv.layer = "layer.dv";
  dv.values_dtype = "fp32";
  for (int i = 0; i < 8 * 16; ++i) dv.values.push_back(fp32(float(i) - 60.5f));
  t.ops.push_back(dv);

  // 2:4, 8 x 16: ptx16 metadata; from a pruned pattern through models/sparse.
  TraceOp nm = dense;
  nm.name = "nm24";
  nm.sparsity = "2:4";
  std::vector<std::uint32_t> d(8 * 16, 0);
  for (int r = 0; r < 8; ++r)
    for (int g = 0; g < 4; ++g) {
      d[r * 16 + g * 4 + (r + g) % 4] = fp16(float(r + 1));
      if (g % 2) d[r * 16 + g * 4 + (r + g + 1) % 4] = fp16(-float(g + 1));
    }
  sparse::CompressedNm c = sparse::compress(d, 8, 16, {2, 4});
  nm.values_dtype = "fp16";
  nm.values = c.values;
  nm.metadata_format = "ptx16";
  nm.metadata = sparse::pack_metadata(c, 16).words;
  t.ops.push_back(nm);

  // 1:4 with index8 metadata and 2 groups (batch 2 x n 3 rows).
  TraceOp n14 = dense;
  n14.name = "nm14_batched";
  n14.n = 3;
  n14.batch = 2;
  n14.k = 8;
  n14.sparsity = "1:4";
  n14.values_dtype = "fp16";
  n14.metadata_format = "index8";
  for (int i = 0; i < 6 * 2; ++i) {
    n14.values.push_back(fp16(0.25f * (i + 1)));
    n14.metadata.push_back(std::uint32_t(i % 4));
  }
  t.ops.push_back(n14);

  // block:4x4 on a 10 x 9 weight: padded to 12 x 12, 3 panels of 3 blocks.
  TraceOp blk = dense;
  blk.name = "block4x4";
  blk.n = 10;
  blk.k = 9;
  blk.sparsity = "block:4x4";
  blk.row_ptr = {0, 2, 2, 3};
  blk.col_idx = {0, 2, 1};
  blk.panel_nnz = {2, 0, 1};
  blk.values_dtype = "fp16";
  blk.values.assign(3 * 16, 0);
  for (int e = 0; e < 16; ++e) blk.values[e] = fp16(1.0f + e);
  for (int i = 0; i < 4; ++i) blk.values[16 + i * 4] = fp16(-2.0f);  // column 8 only: real
  for (int i = 0; i < 2; ++i)                                        // panel 2: rows 8, 9 real
    for (int j = 0; j < 4; ++j) blk.values[32 + i * 4 + j] = fp16(3.0f);
  t.ops.push_back(blk);

  // block map without values, block + 2:4 label.
  TraceOp map = dense;
  map.name = "block_map_only";
  map.n = 8;
  map.k = 16;
  map.sparsity = "block:4x1+2:4";
  map.row_ptr = {0, 5, 16};
  map.col_idx = {0, 3, 4, 9, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  map.panel_nnz = {5, 11};
  t.ops.push_back(map);
  return t;
}

}  // namespace

TEST_CASE("trace_round_trip_every_kind_of_op", "[trace]") {
  ScratchDir dir("roundtrip");
  const std::string path = dir.file("handmade.trace");
  const Trace written = write_trace(path, every_kind());
  CHECK(written.payload_file == "handmade.trace.bin");
  CHECK(written.payload_bytes == std::int64_t(std::filesystem::file_size(path + ".bin")));
  CHECK(written.ops[2].values_ref.offset % 16 == 0);
  CHECK(written.ops[2].metadata_ref.bytes == 8 * 1 * 2);
  const Trace read = read_trace(path);
  CHECK(read == written);
  CHECK(read.ops[1].values == every_kind().ops[1].values);
  CHECK(read.ops[4].panel_nnz == std::vector<std::int32_t>{2, 0, 1});
  CHECK(read.ops[2].line > 0);
  // The payload reads back as the formats library's types.
  const sparse::CompressedNm c = read.ops[2].compressed();
  CHECK(c.rows == 8);
  CHECK(sparse::uncompress(c).size() == 8 * 16);
  CHECK(read.ops[3].compressed().indices[5] == 1);
  const sparse::Bsr b = read.ops[4].bsr();
  CHECK(b.rows == 12);
  CHECK(b.cols == 12);
  CHECK(b.nnz_blocks() == 3);
  CHECK(read.ops[5].bsr().values.size() == 16 * 4);
  CHECK(read.ops[5].block_rows() == 4);
  CHECK(read.ops[5].block_cols() == 1);
  // Writing what was read gives the same bytes.
  const Trace again = write_trace(dir.file("again.trace"), read);
  CHECK(testing::read_text(dir.file("again.trace.bin")) == testing::read_text(path + ".bin"));
}

TEST_CASE("trace_round_trip_keeps_a_convs_geometry", "[trace]") {
  ScratchDir dir("conv");
  Trace t = every_kind();
  t.ops.resize(1);
  TraceOp dw = t.ops[0];
  dw.name = "dw";
  dw.m = 2 * 8 * 8;  // 2 images of 8 x 8 outputs
  dw.n = 1;
  dw.k = 9;
  dw.batch = 32;
  dw.conv = parse_conv("16x16:3x3:s2:p1:d1", dw.m, dw.k);
  CHECK(dw.conv.images == 2);
  CHECK(dw.conv.out_h == 8);
  CHECK(conv_text(dw.conv) == "16x16:3x3:s2:p1:d1");
  t.ops.push_back(dw);
  const std::string path = dir.file("c.trace");
  const Trace w = write_trace(path, t);
  CHECK_THAT(testing::read_text(path), Catch::Contains(" conv=16x16:3x3:s2:p1:d1"));
  const Trace r = read_trace(path);
  CHECK(r == w);
  CHECK(r.ops[1].conv == dw.conv);
  CHECK_FALSE(r.ops[0].conv.present());
}

TEST_CASE("trace_round_trip_keeps_a_causal_mask", "[trace]") {
  ScratchDir dir("causal");
  Trace t = every_kind();
  t.ops.resize(1);
  TraceOp s = t.ops[0];
  s.name = "scores";
  s.m = s.n = 64;
  s.k = 32;
  s.batch = 12;
  s.causal = "output";
  TraceOp c = s;
  c.name = "context";
  c.n = 32;
  c.k = 64;
  c.causal = "a";
  t.ops.push_back(s);
  t.ops.push_back(c);
  const std::string path = dir.file("a.trace");
  const Trace w = write_trace(path, t);
  CHECK_THAT(testing::read_text(path), Catch::Contains(" causal=output"));
  const Trace r = read_trace(path);
  CHECK(r == w);
  CHECK(r.ops[0].causal.empty());
  CHECK(r.ops[1].causal == "output");
  CHECK(r.ops[2].causal == "a");
  TraceOp other = r.ops[2];
  other.causal = "output";
  CHECK_FALSE(other == r.ops[2]);
  // A row op (the causal softmax between them) round-trips too.
  TraceOp sm = s;
  sm.name = "softmax";
  sm.k = 1;
  sm.row_op = "softmax";
  t.ops.push_back(sm);
  const Trace w2 = write_trace(path, t);
  CHECK_THAT(testing::read_text(path), Catch::Contains(" causal=output row_op=softmax"));
  CHECK(read_trace(path) == w2);
  CHECK(read_trace(path).ops[3].row_op == "softmax");
}

TEST_CASE("trace_without_payload_has_no_payload_file", "[trace]") {
  ScratchDir dir("nopayload");
  Trace t = every_kind();
  t.ops.resize(1);
  const std::string path = dir.file("p.trace");
  const Trace w = write_trace(path, t);
  CHECK(w.payload_file.empty());
  CHECK_FALSE(std::filesystem::exists(path + ".bin"));
  CHECK(read_trace(path) == w);
  const std::string text = testing::read_text(path);
  CHECK_THAT(text, Catch::StartsWith(
                       "stcsim-trace 1\nmodel handmade\nsynthetic false\ndtype fp16\nops 1\n"));
}

TEST_CASE("trace_built_from_a_pruned_model_decodes_to_its_weights", "[trace]") {
  ScratchDir dir("built");
  const Model m = testing::small_weighted_model();
  LoweringOptions lo;
  lo.batch = 2;
  lo.seq_len = 5;
  for (const char* spec : {"2:4", "1:4", "block:4x4@0.5", "block:4x16@0.6+2:4", "dense"})
    for (const char* vd : {"fp16", "fp32"}) {
      INFO(spec << " " << vd);
      TraceBuildOptions to;
      to.values_dtype = vd;
      const BuiltTrace bt = build_trace(m, lo, PruneSpec::parse(spec), {}, to);
      const Trace& t = bt.trace;
      REQUIRE(t.ops.size() == 4);
      CHECK_FALSE(t.synthetic);
      CHECK(t.lowering == "batch=2 seq=5");
      CHECK(t.prune == PruneSpec::parse(spec).str());
      CHECK(t.ops[0].m == 10);
      CHECK(t.ops[2].batch == 4);
      CHECK(t.ops[2].n == 6);
      CHECK(t.ops[2].k == 36);
      CHECK(t.ops[2].m == 2 * 64);
      const std::string path = dir.file("built.trace");
      const Trace w = write_trace(path, t);
      const Trace r = read_trace(path);
      REQUIRE(r == w);
      for (std::size_t i = 0; i < r.ops.size(); ++i) {
        const TraceOp& op = r.ops[i];
        INFO(op.name << " " << op.sparsity);
        CHECK(op.sparsity == bt.pruning.layers[i].applied);
        const auto& wt = bt.pruning.model.weights.at(m.layers[i].weight).data;
        auto enc = [&](float v) { return std::string(vd) == "fp16" ? fp16(v) : fp32(v); };
        const std::int64_t rows = std::int64_t(op.batch) * op.n;
        if (op.sparsity == "dense") {
          CHECK(op.values_dtype.empty());
          continue;
        }
        std::vector<std::uint32_t> dense;
        if (!op.metadata_format.empty()) {
          dense = sparse::uncompress(op.compressed());
        } else {
          REQUIRE(op.has_block_map());
          const sparse::Bsr b = op.bsr();
          const auto padded = sparse::from_bsr(b);
          for (std::int64_t rr = 0; rr < rows; ++rr)
            for (std::int64_t cc = 0; cc < op.k; ++cc)
              dense.push_back(padded[std::size_t(rr * b.cols + cc)]);
          std::int32_t sum = 0;
          for (auto p : op.panel_nnz) sum += p;
          CHECK(sum == std::int32_t(op.col_idx.size()));
          CHECK(bt.pruning.layers[i].blocks_nonzero == std::int64_t(op.col_idx.size()));
        }
        REQUIRE(dense.size() == wt.size());
        for (std::size_t e = 0; e < wt.size(); ++e) REQUIRE(dense[e] == enc(wt[e]));
      }
      // The layer with K = 13 stays dense under N:M, and its op says so.
      if (std::string(spec) == "2:4") {
        CHECK(r.ops[3].sparsity == "dense");
        CHECK(r.ops[0].metadata_format == "ptx16");
        CHECK(r.ops[2].metadata_format == "index8");
      }
    }
}

TEST_CASE("shape_only_zoo_traces_are_synthetic_and_carry_labels", "[trace]") {
  ScratchDir dir("zoo");
  for (const auto& name : zoo_model_names()) {
    INFO(name);
    const BuiltTrace bt = build_trace(zoo_model(name), zoo_lowering_defaults(name),
                                      PruneSpec::parse("block:32x32@0.75+2:4"));
    const std::string path = dir.file(name + ".trace");
    const Trace w = write_trace(path, bt.trace);
    CHECK(w.synthetic);
    CHECK(w.payload_file.empty());
    const Trace r = read_trace(path);
    CHECK(r == w);
    CHECK(r.ops.size() == zoo_model(name).layers.size());
    CHECK_THAT(r.source, Catch::StartsWith("shapes only"));
  }
  // A synthetic-weight model gets a block map (and is still labelled synthetic).
  const Model dlrm = with_synthetic_weights(zoo_model("dlrm_kaggle"), 7);
  const BuiltTrace bt = build_trace(dlrm, {}, PruneSpec::parse("block:16x16@0.5"));
  CHECK(bt.trace.synthetic);
  CHECK(bt.trace.ops[1].has_block_map());
}
