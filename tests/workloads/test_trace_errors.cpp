// Trace format v1: every kind of bad input is an InputError naming the file and line (or
// the payload file and byte offset) and what was expected.
#include <catch2/catch.hpp>
#include <functional>

#include "models/common/dtype.h"
#include "models/numerics/float_format.h"
#include "models/sparse/metadata.h"
#include "models/sparse/nm_compress.h"
#include "sim/core/input_error.h"
#include "tests/workloads/trace_test_util.h"
#include "workloads/trace/trace.h"
#include "workloads/trace/trace_check.h"

using namespace stcsim;
using namespace stcsim::workloads;
using stcsim::workloads::testing::ScratchDir;

namespace {

std::uint32_t fp16(float v) {
  return numerics::encode(numerics::FloatFormat::FP16, double(v), numerics::Rounding::NearestEven);
}

// dense (line 8), 2:4 with ptx16 metadata (line 9), block:2x4 with values (line 10).
Trace good_trace() {
  Trace t;
  t.model = "good";
  t.synthetic = true;
  t.dtype = "fp16";
  TraceOp d;
  d.name = "d";
  d.m = 4;
  d.n = 4;
  d.k = 16;
  t.ops.push_back(d);
  TraceOp nm = d;
  nm.name = "nm";
  nm.sparsity = "2:4";
  std::vector<std::uint32_t> w(4 * 16, 0);
  for (int r = 0; r < 4; ++r)
    for (int g = 0; g < 4; ++g) w[r * 16 + g * 4 + (r + g) % 4] = fp16(1.5f + r);
  const auto c = sparse::compress(w, 4, 16, {2, 4});
  nm.values_dtype = "fp16";
  nm.values = c.values;
  nm.metadata_format = "ptx16";
  nm.metadata = sparse::pack_metadata(c, 16).words;
  t.ops.push_back(nm);
  TraceOp b = d;
  b.name = "blk";
  b.n = 3;  // 3 x 16 in 2x4 blocks: 2 panels (the second half padding) of 4 blocks
  b.sparsity = "block:2x4";
  b.row_ptr = {0, 2, 3};
  b.col_idx = {1, 3, 0};
  b.panel_nnz = {2, 1};
  b.values_dtype = "fp16";
  b.values.assign(3 * 8, fp16(0.5f));
  for (int j = 0; j < 4; ++j) b.values[16 + 4 + j] = 0;  // padding row of panel 1
  t.ops.push_back(b);
  return t;
}

struct Fixture {
  ScratchDir dir{"errors"};
  std::string path = dir.file("t.trace");
  Trace written;

  Fixture() { written = write_trace(path, good_trace()); }

  void reset() { written = write_trace(path, good_trace()); }
  void replace(const std::string& from, const std::string& to) {
    std::string text = testing::read_text(path);
    const auto at = text.find(from);
    REQUIRE(at != std::string::npos);
    text.replace(at, from.size(), to);
    testing::write_text(path, text);
  }
  void poke(std::int64_t offset, std::vector<std::uint8_t> bytes) {
    std::string bin = testing::read_text(path + ".bin");
    for (std::size_t i = 0; i < bytes.size(); ++i) bin[std::size_t(offset) + i] = char(bytes[i]);
    testing::write_text(path + ".bin", bin);
  }
  std::string ref(const PayloadRef& r) const {
    return std::to_string(r.offset) + ":" + std::to_string(r.bytes);
  }
  // read_trace must fail with a message holding every one of `parts`.
  void expect(const std::vector<std::string>& parts) {
    try {
      read_trace(path);
      FAIL("read_trace accepted the bad trace:\n" << testing::read_text(path));
    } catch (const InputError& e) {
      const std::string msg = e.what();
      INFO(msg);
      for (const auto& p : parts) CHECK_THAT(msg, Catch::Contains(p));
    }
    reset();
  }
};

}  // namespace

TEST_CASE("trace_good_fixture_reads", "[trace_errors]") {
  Fixture f;
  const Trace r = read_trace(f.path);
  CHECK(r == f.written);
  CHECK(r.ops[0].line == 8);
  CHECK(r.ops[2].line == 10);
}

TEST_CASE("trace_rejects_versions_and_missing_header", "[trace_errors]") {
  Fixture f;
  f.replace("stcsim-trace 1", "stcsim-trace 2");
  f.expect({"t.trace:1:", "version '2'", "reads version 1"});
  f.replace("stcsim-trace 1", "stcsim-trace 0");
  f.expect({"t.trace:1:", "version '0'"});
  f.replace("stcsim-trace 1", "stcsim-trace");
  f.expect({"t.trace:1:", "expected the header 'stcsim-trace 1'"});
  f.replace("stcsim-trace 1", "model x");
  f.expect({"t.trace:1:", "expected the header"});
  testing::write_text(f.path, "# only a comment\n\n");
  f.expect({"t.trace", "empty trace"});
  CHECK_THROWS_WITH(read_trace(f.dir.file("absent.trace")),
                    Catch::Contains("cannot open trace file"));
  f.replace("model good\n", "");
  f.expect({"t.trace", "missing header line 'model'"});
  f.replace("ops 3\n", "");
  f.expect({"missing header line 'ops'"});
}

TEST_CASE("trace_rejects_unknown_and_repeated_keys", "[trace_errors]") {
  Fixture f;
  f.replace("model good", "modle good");
  f.expect({"t.trace:2:", "unknown key 'modle'", "did you mean 'model'"});
  f.replace("op d ", "operation d ");
  f.expect({"t.trace:8:", "unknown key 'operation'"});
  f.replace("sparsity=2:4", "sparsty=2:4");
  f.expect({"t.trace:9:", "op 'nm'", "unknown key 'sparsty'", "did you mean 'sparsity'"});
  f.replace("dtype fp16", "dtype fp16\ndtype bf16");
  f.expect({"t.trace:5:", "'dtype' is given twice (first at line 4)"});
  f.replace("op d m=4", "op d m=4 m=5");
  f.expect({"t.trace:8:", "'m' is given twice"});
  f.replace("op blk", "op d");
  f.expect({"t.trace:10:", "op name 'd' is used twice (first at line 8)"});
  f.replace("op blk m=4", "source late\nop blk m=4");
  f.expect({"t.trace:10:", "header line 'source' must come before the first op"});
  f.replace("op d m=4", "op d m4");
  f.expect({"t.trace:8:", "expected key=value, got 'm4'"});
  f.replace("op d m=4", "op m=4");
  f.expect({"t.trace:8:", "expected 'op <name>"});
  f.replace("op d m=4", "op d m=");
  f.expect({"t.trace:8:", "'m' has no value"});
}

TEST_CASE("trace_rejects_bad_numbers_and_values", "[trace_errors]") {
  Fixture f;
  for (const char* bad : {"m=abc", "m=0", "m=-4", "m=+4", "m=4.0", "m=99999999999", "m=16777217"}) {
    f.replace("op d m=4", std::string("op d ") + bad);
    f.expect({"t.trace:8:", "op 'd'", "m must be a whole number from 1 to 16777216"});
  }
  f.replace("op d m=4", "op d");
  f.expect({"t.trace:8:", "missing m="});
  f.replace("batch=1 dtype=fp16 sparsity=dense", "batch=0 dtype=fp16 sparsity=dense");
  f.expect({"t.trace:8:", "batch must be a whole number"});
  f.replace("ops 3", "ops three");
  f.expect({"t.trace:5:", "ops must be a whole number"});
  f.replace("synthetic true", "synthetic yes");
  f.expect({"t.trace:3:", "synthetic must be true or false"});
  f.replace("dtype fp16", "dtype fp8");
  f.expect({"t.trace:4:", "unknown dtype 'fp8'", "fp16|bf16|tf32|int8|fp8_e4m3|fp8_e5m2"});
  f.replace("op d m=4 n=4 k=16 batch=1 dtype=fp16", "op d m=4 n=4 k=16 batch=1 dtype=half");
  f.expect({"t.trace:8:", "unknown dtype 'half'"});
  f.replace("sparsity=2:4", "sparsity=3:4");
  f.expect({"t.trace:9:", "invalid sparsity '3:4'"});
  f.replace("sparsity=block:2x4", "sparsity=block:2x4@0.5");
  f.expect({"t.trace:10:", "invalid sparsity"});
  f.replace("op d m=4 n=4 k=16 batch=1 dtype=fp16 sparsity=dense",
            "op d m=4 n=4 k=18 batch=1 dtype=fp16 sparsity=2:4");
  f.expect({"t.trace:8:", "needs k to be a multiple of 4"});
  f.replace("values_dtype=fp16 metadata", "values_dtype=fp64 metadata");
  f.expect({"t.trace:9:", "values_dtype must be fp16 or fp32"});
  f.replace("metadata_format=ptx16", "metadata_format=ptx32");
  f.expect({"t.trace:9:", "metadata_format must be ptx16 or index8"});
  f.replace(" values_dtype=fp16 metadata", " metadata");
  f.expect({"t.trace:9:", "values= and values_dtype= go together"});
  f.replace(" col_idx=", " colidx=");
  f.expect({"t.trace:10:", "unknown key 'colidx'"});
  // An N:M op's values are its kept ones: without metadata nothing says where they go.
  const TraceOp nm = f.written.ops[1];  // a copy: reset() replaces f.written
  f.replace(" metadata=" + f.ref(nm.metadata_ref) + " metadata_format=ptx16", "");
  f.expect({"t.trace:9:", "op 'nm'", "kept values", "give both or neither"});
}

TEST_CASE("trace_rejects_a_conv_that_does_not_match_its_gemm", "[trace_errors]") {
  Fixture f;  // op d: m = 4, k = 16
  f.replace("op d m=4 n=4 k=16 batch=1", "op d m=4 n=4 k=16 batch=1 conv=2x2:3x3");
  f.expect({"t.trace:8:", "op 'd'", "conv must be <H>x<W>:<R>x<S>:s<stride>:p<pad>:d<dil>"});
  f.replace("op d m=4 n=4 k=16 batch=1", "op d m=4 n=4 k=16 batch=1 conv=2x2:1x1:s0:p0:d1");
  f.expect({"t.trace:8:", "sizes from 1"});
  // 4 x 4 outputs per image do not divide m = 4.
  f.replace("op d m=4 n=4 k=16 batch=1", "op d m=4 n=4 k=16 batch=1 conv=4x4:1x1:s1:p0:d1");
  f.expect({"t.trace:8:", "4 x 4 outputs per image, which does not divide m = 4"});
  // A 3x3 window has 9 taps; k = 16 is not a multiple.
  f.replace("op d m=4 n=4 k=16 batch=1", "op d m=4 n=4 k=16 batch=1 conv=2x2:3x3:s1:p1:d1");
  f.expect({"t.trace:8:", "k = 16 is not a multiple of the window's 9 taps"});
  // A window larger than the padded input.
  f.replace("op d m=4 n=4 k=16 batch=1", "op d m=4 n=4 k=16 batch=1 conv=2x2:4x4:s1:p0:d1");
  f.expect({"t.trace:8:", "op 'd'"});
  // 2 x 2 outputs of a 1x1 window with 16 input channels per group: accepted.
  f.replace("op d m=4 n=4 k=16 batch=1", "op d m=4 n=4 k=16 batch=1 conv=2x2:1x1:s1:p0:d1");
  CHECK(read_trace(f.path).ops[0].conv.images == 1);
}

TEST_CASE("trace_rejects_a_causal_mask_it_cannot_apply", "[trace_errors]") {
  Fixture f;  // op d (line 8) is dense, nm (line 9) is 2:4 with a payload
  f.replace("op d m=4 n=4 k=16 batch=1", "op d m=4 n=4 k=16 batch=1 causal=upper");
  f.expect({"t.trace:8:", "causal must be 'output' (the scores Q K^T) or 'a'", "'upper'"});
  f.replace("op nm m=4 n=4 k=16 batch=1", "op nm m=4 n=4 k=16 batch=1 causal=a");
  f.expect({"t.trace:9:", "a causal attention op has two activation operands"});
  f.replace("op d m=4 n=4 k=16 batch=1", "op d m=4 n=4 k=16 batch=1 causal=a");
  CHECK(read_trace(f.path).ops[0].causal == "a");
  // The writer refuses what the reader would.
  Trace t = good_trace();
  t.ops[1].causal = "output";
  CHECK_THROWS_WITH(write_trace(f.dir.file("w.trace"), t),
                    Catch::Contains("a causal attention op has two activation operands"));
}

TEST_CASE("trace_rejects_a_row_op_it_cannot_run", "[trace_errors]") {
  Fixture f;  // op d (line 8) is dense, m = 4, n = 4, k = 16
  f.replace("op d m=4 n=4 k=16 batch=1", "op d m=4 n=4 k=1 batch=1 row_op=relu");
  f.expect({"t.trace:8:", "unknown row op 'relu'", "softmax, layernorm"});
  f.replace("op d m=4 n=4 k=16 batch=1", "op d m=4 n=4 k=16 batch=1 row_op=gelu");
  f.expect({"t.trace:8:", "row_op gelu is m rows of n elements: k must be 1, got 16"});
  f.replace("op d m=4 n=4 k=16 batch=1", "op d m=4 n=4 k=1 batch=1 row_op=gelu causal=output");
  f.expect({"t.trace:8:", "only a softmax takes a causal mask"});
  f.replace("op d m=4 n=4 k=16 batch=1", "op d m=4 n=4 k=1 batch=1 row_op=softmax causal=a");
  f.expect({"t.trace:8:", "got causal=a on softmax"});
  f.replace("op nm m=4 n=4 k=16 batch=1", "op nm m=4 n=4 k=1 batch=1 row_op=add");
  f.expect({"t.trace:9:"});
  f.replace("op d m=4 n=4 k=16 batch=1", "op d m=4 n=4 k=1 batch=1 row_op=softmax causal=output");
  const Trace t = read_trace(f.path);
  CHECK(t.ops[0].row_op == "softmax");
  CHECK(t.ops[0].causal == "output");
}

TEST_CASE("trace_rejects_truncation", "[trace_errors]") {
  Fixture f;
  std::string text = testing::read_text(f.path);
  text.resize(text.rfind("op blk"));
  testing::write_text(f.path, text);
  f.expect({"t.trace", "declares 3 ops (line 5) but the file holds 2", "truncated"});
  std::string bin = testing::read_text(f.path + ".bin");
  testing::write_text(f.path + ".bin", bin.substr(0, bin.size() - 3));
  f.expect({"t.trace.bin", "payload is", "bytes, the trace (", "t.trace:6) says"});
  std::filesystem::remove(f.path + ".bin");
  f.expect({"t.trace:6:", "cannot open the payload file"});
  f.replace("payload t.trace.bin", "payload missing.bin");
  f.expect({"t.trace:6:", "missing.bin"});
  f.replace("payload t.trace.bin " + std::to_string(f.written.payload_bytes) + "\n", "");
  f.expect({"t.trace:8:", "op 'nm'", "refers to a payload, but the header has no 'payload' line"});
}

TEST_CASE("trace_rejects_payload_references_out_of_range_or_of_wrong_size", "[trace_errors]") {
  Fixture f;
  const TraceOp nm = f.written.ops[1];  // copies: reset() replaces f.written
  const TraceOp blk = f.written.ops[2];
  const std::string size = std::to_string(f.written.payload_bytes);
  f.replace("values=" + f.ref(nm.values_ref), "values=" + size + ":16");
  f.expect({"t.trace:9:", "op 'nm'", "values=" + size + ":16 runs past the end of",
            "t.trace.bin (" + size + " bytes)"});
  f.replace("values=" + f.ref(nm.values_ref),
            "values=" + std::to_string(nm.values_ref.offset) + ":30");
  f.expect({"t.trace:9:", "op 'nm' values=", "holds 15 fp16 values, expected 32"});
  f.replace("values=" + f.ref(nm.values_ref),
            "values=" + std::to_string(nm.values_ref.offset) + ":31");
  f.expect({"t.trace:9:", "not a whole number of 2-byte elements"});
  f.replace("values=" + f.ref(nm.values_ref), "values=12x");
  f.expect({"t.trace:9:", "values must be <offset>:<bytes>"});
  f.replace("metadata=" + f.ref(nm.metadata_ref),
            "metadata=" + std::to_string(nm.metadata_ref.offset) + ":2");
  f.expect({"t.trace:9:", "metadata=", "holds 1 ptx16 elements, expected 4"});
  f.replace("row_ptr=" + f.ref(blk.row_ptr_ref),
            "row_ptr=" + std::to_string(blk.row_ptr_ref.offset) + ":8");
  f.expect({"t.trace:10:", "op 'blk' row_ptr=", "holds 2 entries, expected 3"});
  f.replace("panel_nnz=" + f.ref(blk.panel_nnz_ref), "panel_nnz=" + f.ref(blk.row_ptr_ref));
  f.expect({"t.trace:10:", "panel_nnz", "holds 3 entries, expected 2"});
  // Payload arrays on ops that cannot have them.
  f.replace("sparsity=2:4", "sparsity=dense");
  f.expect({"t.trace:9:", "metadata belongs to N:M ops"});
  f.replace("sparsity=block:2x4", "sparsity=2:4");
  f.expect({"t.trace:10:", "a block map (row_ptr, col_idx, panel_nnz) belongs to block ops"});
}

TEST_CASE("trace_rejects_corrupt_payload_contents_by_byte_offset", "[trace_errors]") {
  Fixture f;
  const TraceOp nm = f.written.ops[1];  // copies: reset() replaces f.written
  const TraceOp blk = f.written.ops[2];
  // row_ptr[1] = 7 > 4 blocks per panel.
  f.poke(blk.row_ptr_ref.offset + 4, {7, 0, 0, 0});
  f.expect({"t.trace.bin byte " + std::to_string(blk.row_ptr_ref.offset + 4), "op 'blk' row_ptr[1]",
            "(" + f.path + ":10)", "would hold 7 blocks"});
  // row_ptr[0] != 0
  f.poke(blk.row_ptr_ref.offset, {1, 0, 0, 0});
  f.expect({"byte " + std::to_string(blk.row_ptr_ref.offset), "the first entry must be 0"});
  // panel_nnz[1] disagrees with row_ptr.
  f.poke(blk.panel_nnz_ref.offset + 4, {2, 0, 0, 0});
  f.expect({"byte " + std::to_string(blk.panel_nnz_ref.offset + 4), "panel_nnz[1]",
            "differs from row_ptr's 1"});
  // col_idx out of range, then out of order.
  f.poke(blk.col_idx_ref.offset + 4, {4, 0, 0, 0});
  f.expect({"t.trace:10:", "op 'blk' col_idx=", "block column 4 outside 0..3"});
  f.poke(blk.col_idx_ref.offset + 4, {1, 0, 0, 0});
  f.expect({"t.trace:10:", "col_idx=", "strictly increase"});
  // A nonzero in the padding row of panel 1 (block 2, row 1).
  f.poke(blk.values_ref.offset + 2 * (16 + 4 + 2), {0x00, 0x3C});
  f.expect({"byte " + std::to_string(blk.values_ref.offset + 2 * 22), "values[22]",
            "nonzero in its padding"});
  // Metadata nibble 0x0 (both kept values at position 0) is never valid.
  f.poke(nm.metadata_ref.offset, {0x00, 0x00});
  f.expect({"t.trace:9:", "op 'nm' metadata=", "invalid 2:4 metadata nibble"});
}

TEST_CASE("trace_writer_rejects_what_the_reader_would", "[trace_errors]") {
  ScratchDir dir("writer");
  Trace t = good_trace();
  t.ops[1].metadata.pop_back();
  CHECK_THROWS_WITH(write_trace(dir.file("w.trace"), t),
                    Catch::Contains("op 'nm' metadata") && Catch::Contains("expected 4"));
  t = good_trace();
  t.ops[0].name = "has space";
  CHECK_THROWS_WITH(write_trace(dir.file("w.trace"), t), Catch::Contains("must be one word"));
  t = good_trace();
  t.ops[2].name = "nm";
  CHECK_THROWS_WITH(write_trace(dir.file("w.trace"), t), Catch::Contains("used twice"));
  t = good_trace();
  t.ops[1].values[0] = 0x12345;
  CHECK_THROWS_WITH(write_trace(dir.file("w.trace"), t), Catch::Contains("wider than 16 bits"));
  t = good_trace();
  t.source = "two\nlines";
  CHECK_THROWS_WITH(write_trace(dir.file("w.trace"), t), Catch::Contains("must be one line"));
  t = good_trace();
  t.version = 0;
  CHECK_THROWS_AS(write_trace(dir.file("w.trace"), t), InputError);
  CHECK_FALSE(std::filesystem::exists(dir.file("w.trace")));
}

TEST_CASE("trace_takes_every_dtype_of_the_models_fp8_included", "[trace_errors]") {
  // The trace library keeps its own list of dtype names (it does not link models/): it
  // must be exactly models/common/dtype.h's, fp8 included.
  CHECK(std::string(trace_detail::dtype_list()) == dtype_names());
  for (Dtype d : kAllDtypes) CHECK(trace_detail::is_dtype(to_string(d)));
  CHECK_FALSE(trace_detail::is_dtype("fp8"));
  Fixture f;
  f.replace("dtype fp16", "dtype fp8_e4m3");
  f.replace("op d m=4 n=4 k=16 batch=1 dtype=fp16", "op d m=4 n=4 k=16 batch=1 dtype=fp8_e5m2");
  const Trace r = read_trace(f.path);
  CHECK(r.dtype == "fp8_e4m3");
  CHECK(r.ops[0].dtype == "fp8_e5m2");
}
