// Dtype names, sizes and instruction shapes, fp8 included: every name parses back to its
// dtype, an unknown one is an InputError listing them all, and the shapes and operand
// bytes are the PTX ISA's (mma.sync m16n8k32 e4m3/e5m2, wgmma m64nNk32, wgmma.sp m64nNk64).
#include <catch2/catch.hpp>

#include "models/common/mma_kind.h"
#include "sim/core/input_error.h"
#include "sim/driver/gemm_list.h"

using namespace stcsim;

TEST_CASE("dtype_every_name_parses_back_and_unknown_names_list_all", "[dtype]") {
  for (Dtype d : kAllDtypes) CHECK(parse_dtype(to_string(d)) == d);
  CHECK(parse_dtype("fp8_e4m3") == Dtype::FP8_E4M3);
  CHECK(parse_dtype("fp8_e5m2") == Dtype::FP8_E5M2);
  CHECK(dtype_names() == "fp16|bf16|tf32|int8|fp8_e4m3|fp8_e5m2");
  for (const char* bad : {"fp8", "e4m3", "FP8_E4M3", "fp8_e4m3 ", "fp8-e5m2", ""}) {
    INFO(bad);
    CHECK_THROWS_AS(parse_dtype(bad), InputError);
    CHECK_THROWS_WITH(parse_dtype(bad), Catch::Contains(dtype_names()));
  }
  // --gemm and trace format 0 take the names too.
  CHECK(parse_gemm("64x64x64", Dtype::FP8_E5M2, "--gemm").dtype == Dtype::FP8_E5M2);
}

TEST_CASE("dtype_fp8_sizes_and_mma_shapes", "[dtype]") {
  for (Dtype d : {Dtype::FP8_E4M3, Dtype::FP8_E5M2}) {
    INFO(to_string(d));
    CHECK(is_fp8(d));
    CHECK(input_bytes(d) == 1);
    CHECK(output_bytes(d) == 1);  // D in the input's fp8 format (CUTLASS example 54)
    const MmaShape s = dense_mma_shape(d);
    CHECK((s.m == 16 && s.n == 8 && s.k == 32));
  }
  for (Dtype d : {Dtype::FP16, Dtype::BF16, Dtype::TF32, Dtype::INT8}) CHECK_FALSE(is_fp8(d));
}

TEST_CASE("dtype_fp8_wgmma_operand_bytes_follow_k_and_the_byte_element", "[dtype][hopper]") {
  // Dense wgmma m64n256k32: A 64 x 32 x 1 B, B 256 x 32 x 1 B, 64 x 256 x 32 products.
  const MmaKind dense{Dtype::FP8_E4M3, {}, 256};
  CHECK(dense.str() == "fp8_e4m3 wgmma m64n256k32");
  CHECK(dense.shape().k == 32);
  CHECK(dense.a_bytes() == 2048);
  CHECK(dense.b_bytes() == 8192);
  CHECK(dense.products() == 64 * 256 * 32);
  // wgmma.sp m64n256k64 2:4: the same products, A compressed to 32 bytes per row plus
  // 2-bit indices (64 x 32 x 2 bits = 512 B), all of B's 64 K: 16384 B.
  const MmaKind sp{Dtype::FP8_E5M2, {2, 4}, 256};
  CHECK(sp.str() == "fp8_e5m2 wgmma m64n256k64 2:4");
  CHECK(sp.shape().k == 64);
  CHECK(sp.products() == dense.products());
  CHECK(sp.a_bytes() == 2048);
  CHECK(sp.b_bytes() == 16384);
  CHECK(sp.metadata_bits() == 64 * 32 * 2);
  // fp16 wgmma m64n256k16 reads the same 8192 B of B for half the products.
  const MmaKind f16{Dtype::FP16, {}, 256};
  CHECK(f16.b_bytes() == dense.b_bytes());
  CHECK(dense.products() == 2 * f16.products());
  // mma.sync m16n8k32 and mma.sp m16n8k64.
  CHECK(MmaKind{Dtype::FP8_E4M3, {}}.str() == "fp8_e4m3 m16n8k32");
  CHECK(MmaKind{Dtype::FP8_E4M3, {2, 4}}.str() == "fp8_e4m3 m16n8k64 2:4");
}
