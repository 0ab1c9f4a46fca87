// The 2:4 sparse dot-product unit: one element of D = C + A x B for mma.sp, where A is
// 2:4-compressed; fp16/bf16 with an fp32 accumulator, or s8 with an exact s32 one. Each
// beat takes BLOCK logical K positions (BLOCK/4 groups: BLOCK/2 kept A values, their
// metadata nibbles, BLOCK B values) and adds them as one fused block of the accumulation
// model into the fp32 accumulator (s8: exactly, modulo 2^32); `first` starts a dot
// product from C, `last` ends it and puts D on the output. BLOCK and EXTRA come from the numerics preset
// through the generated stc_params.svh (rtl/gen), the same values the C++ model uses.
//
// Pipeline (valid/ready, one beat per cycle, stalls only on output back-pressure):
//   stage 1: metadata decode, operand select, BLOCK/2 exact multipliers -> registers
//   stage 2: fused block add (or the s32 sum) with the accumulator -> accumulator / output
//            (stc_accumulate, shared with dense_dot)
`include "stc_params.svh"
module sp24_dot #(
  parameter int BLOCK = `STC_BLOCK_SIZE,  // logical products per beat, a multiple of 4
  parameter int EXTRA = `STC_EXTRA_BITS
) (
  input  logic                  clk,
  input  logic                  rst_n,
  input  logic                  in_valid,
  output logic                  in_ready,
  input  logic                  in_first,
  input  logic                  in_last,
  input  logic                  in_bf16,    // 0: fp16, 1: bf16 (the whole dot product)
  input  logic                  in_int8,    // s8 in the low bytes, s32 C and D (overrides bf16)
  input  logic [BLOCK*8-1:0]    in_a,       // BLOCK/2 kept A values, 16 bits each
  input  logic [BLOCK-1:0]      in_meta,    // BLOCK/4 nibbles
  input  logic [BLOCK*16-1:0]   in_b,       // BLOCK B values
  input  logic [31:0]           in_c,       // fp32 C (read on `first` beats)
  output logic                  out_valid,
  input  logic                  out_ready,
  output logic [31:0]           out_d,
  output logic                  out_meta_err  // a nibble of this dot product was not ordered
);
  localparam int KEPT = BLOCK / 2;
  localparam int GROUPS = BLOCK / 4;

  // stage 1, combinational
  logic [KEPT-1:0] m_nan, m_inf, m_zero, m_sign;
  logic [KEPT*24-1:0] m_sig;
  logic [KEPT*12-1:0] m_exp;
  logic [GROUPS-1:0] g_err;
  logic [BLOCK-1:0] pruned;
  logic [KEPT*16-1:0] b_sel;

  for (genvar g = 0; g < GROUPS; g++) begin : group
    logic [1:0] idx0, idx1;
    sp24_meta_decode dec (.nibble(in_meta[4*g +: 4]), .idx0(idx0), .idx1(idx1),
                          .invalid(g_err[g]));
    sp24_operand_select sel (.b_group(in_b[64*g +: 64]), .idx0(idx0), .idx1(idx1),
                             .b0(b_sel[32*g +: 16]), .b1(b_sel[32*g+16 +: 16]),
                             .pruned(pruned[4*g +: 4]));
  end
  for (genvar i = 0; i < KEPT; i++) begin : mul
    stc_mul16 u (.int8(in_int8), .bf16(in_bf16), .a(in_a[16*i +: 16]), .b(b_sel[16*i +: 16]),
                 .nan(m_nan[i]), .inf(m_inf[i]), .zero(m_zero[i]), .sign(m_sign[i]), .sig(m_sig[24*i +: 24]),
                 .exp(m_exp[12*i +: 12]));
  end

  // Pruned positions hold A = +0: 0 x inf and 0 x NaN are NaN; otherwise the product is a
  // zero with B's sign. Only those two facts reach the adder.
  logic x_nan_c, x_pos_zero_c;
  always_comb begin
    x_nan_c = 1'b0;
    x_pos_zero_c = 1'b0;
    for (int j = 0; j < BLOCK; j++) begin
      if (!in_int8 && pruned[j] && (in_bf16 ? (&in_b[16*j+7 +: 8]) : (&in_b[16*j+10 +: 5])))
        x_nan_c = 1'b1;  // exponent all ones: B is inf or NaN
      if (!in_int8 && pruned[j] && !in_b[16*j+15]) x_pos_zero_c = 1'b1;
    end
  end

  // stage 1 registers
  logic v1, int81, first1, last1, err1, x_nan1, x_pos_zero1;
  logic [31:0] c1;
  logic [KEPT-1:0] p_nan1, p_inf1, p_zero1, p_sign1;
  logic [KEPT*24-1:0] p_sig1;
  logic [KEPT*12-1:0] p_exp1;

  logic stall;
  assign stall = out_valid && !out_ready;
  assign in_ready = !stall;

  // stage 2
  logic err_q;
  stc_accumulate #(.N(KEPT), .EXTRA(EXTRA)) acc (
    .clk(clk), .en(v1 && !stall), .first(first1), .last(last1), .int8(int81), .c(c1),
    .p_nan(p_nan1), .p_inf(p_inf1), .p_zero(p_zero1), .p_sign(p_sign1), .p_sig(p_sig1),
    .p_exp(p_exp1), .x_nan(x_nan1), .x_pos_zero(x_pos_zero1), .d(out_d));

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      v1 <= 1'b0;
      out_valid <= 1'b0;
    end else if (!stall) begin
      v1 <= in_valid;
      out_valid <= v1 && last1;
    end
  end

  always_ff @(posedge clk) begin
    if (!stall) begin
      if (in_valid) begin
        int81 <= in_int8;
        first1 <= in_first;
        last1 <= in_last;
        err1 <= |g_err;
        c1 <= in_c;
        x_nan1 <= x_nan_c;
        x_pos_zero1 <= x_pos_zero_c;
        p_nan1 <= m_nan;
        p_inf1 <= m_inf;
        p_zero1 <= m_zero;
        p_sign1 <= m_sign;
        p_sig1 <= m_sig;
        p_exp1 <= m_exp;
      end
      if (v1) begin
        err_q <= (first1 ? 1'b0 : err_q) | err1;
        if (last1) out_meta_err <= (first1 ? 1'b0 : err_q) | err1;
      end
    end
  end
endmodule
