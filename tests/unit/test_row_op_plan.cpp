// The row-op kernel's launch plan (models/kernels/row_op_plan.h): chunks of whole rows of
// at least 1024 elements, a causal softmax's rows of i + 1 elements, and the op names.
#include <catch2/catch.hpp>

#include "models/kernels/row_op_plan.h"
#include "sim/core/input_error.h"

using namespace stcsim;

namespace {

GemmOp row(RowOpKind kind, std::int64_t m, std::int64_t n, int batch = 1) {
  GemmOp op;
  op.row_op = kind, op.m = m, op.n = n, op.k = 1, op.batch = batch;
  return op;
}

}  // namespace

TEST_CASE("row_op_chunks_hold_whole_rows_of_at_least_1024_elements", "[row_op]") {
  const RowOpShape a = row_op_shape(row(RowOpKind::LayerNorm, 1000, 768));
  CHECK(a.rows_per_chunk == 1);  // 768 < 1024: still one whole row
  CHECK(a.ctas() == 1000);
  const RowOpShape b = row_op_shape(row(RowOpKind::Gelu, 1000, 256, 3));
  CHECK(b.rows_per_chunk == 4);
  CHECK(b.chunks_per_batch == 250);
  CHECK(b.ctas() == 750);
  CHECK(b.last_row(249) == 1000);
  const RowOpShape c = row_op_shape(row(RowOpKind::Add, 10, 100));
  CHECK(c.rows_per_chunk == 10);
  CHECK(c.ctas() == 1);
  CHECK(c.elements(0, 10) == 1000);
}

TEST_CASE("row_op_causal_softmax_rows_keep_their_first_i_plus_1", "[row_op]") {
  GemmOp op = row(RowOpKind::Softmax, 300, 300, 2);
  op.causal = Causal::Output;
  const RowOpShape s = row_op_shape(op);
  std::int64_t total = 0;
  for (std::int64_t c = 0; c < s.chunks_per_batch; ++c) {
    std::int64_t want = 0;
    for (std::int64_t i = s.first_row(c); i < s.last_row(c); ++i)
      want += std::min<std::int64_t>(i + 1, 300);
    CHECK(s.elements(s.first_row(c), s.last_row(c)) == want);
    total += want;
  }
  CHECK(total == 300 * 301 / 2);
  CHECK(op.row_elements() == 2 * 300 * 301 / 2);
  // Softmax reads and writes each kept element once.
  CHECK(op.min_bytes() == 2.0 * 2 * 2 * 300 * 301 / 2);
  CHECK(op.flops() == 0);
  CHECK(op.products() == 0);
}

TEST_CASE("row_op_names_parse_and_say_what_is_valid", "[row_op]") {
  for (const auto& i : row_op_infos()) CHECK(parse_row_op(i.name) == i.kind);
  CHECK_THROWS_WITH(parse_row_op("relu"), Catch::Contains("unknown row op 'relu'") &&
                                              Catch::Contains("softmax, layernorm, rmsnorm"));
  // A norm reads its weight (and bias) once besides the rows.
  const GemmOp ln = row(RowOpKind::LayerNorm, 4, 8);
  CHECK(ln.min_bytes() == 2.0 * 32 + 2.0 * 32 + 2.0 * 2 * 8);
}
