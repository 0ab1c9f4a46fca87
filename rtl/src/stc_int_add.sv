// Integer accumulation (mma with s8 inputs, s32 accumulator): acc + the signed
// products, exact, wrapping modulo 2^32 like PTX without .satfinite (models/numerics
// mma_dot_int). Combinational.
module stc_int_add #(
  parameter int N = 4
) (
  input  logic [N-1:0]    p_sign,
  input  logic [N*24-1:0] p_sig,  // |product| (at most 2^14 for s8)
  input  logic [31:0]     acc,
  output logic [31:0]     sum
);
  always_comb begin
    sum = acc;
    for (int i = 0; i < N; i++)
      sum = p_sign[i] ? sum - 32'(p_sig[24*i +: 24]) : sum + 32'(p_sig[24*i +: 24]);
  end
endmodule
