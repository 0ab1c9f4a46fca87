// The dense counterpart of sp24_dot: dense mma in the `impl: rtl` tensor core
// (rtl/model) and the area comparison (rtl/reports). The same BLOCK logical K positions
// per beat, but BLOCK multipliers and no metadata or operand selection; the same
// accumulate stage (stc_accumulate, BLOCK product terms) and 2-stage valid/ready pipeline.
`include "stc_params.svh"
module dense_dot #(
  parameter int BLOCK = `STC_BLOCK_SIZE,
  parameter int EXTRA = `STC_EXTRA_BITS
) (
  input  logic                clk,
  input  logic                rst_n,
  input  logic                in_valid,
  output logic                in_ready,
  input  logic                in_first,
  input  logic                in_last,
  input  logic                in_bf16,
  input  logic                in_int8,
  input  logic [BLOCK*16-1:0] in_a,
  input  logic [BLOCK*16-1:0] in_b,
  input  logic [31:0]         in_c,
  output logic                out_valid,
  input  logic                out_ready,
  output logic [31:0]         out_d
);
  logic [BLOCK-1:0] m_nan, m_inf, m_zero, m_sign;
  logic [BLOCK*24-1:0] m_sig;
  logic [BLOCK*12-1:0] m_exp;
  for (genvar i = 0; i < BLOCK; i++) begin : mul
    stc_mul16 u (.int8(in_int8), .bf16(in_bf16), .a(in_a[16*i +: 16]), .b(in_b[16*i +: 16]),
                 .nan(m_nan[i]), .inf(m_inf[i]), .zero(m_zero[i]), .sign(m_sign[i]), .sig(m_sig[24*i +: 24]),
                 .exp(m_exp[12*i +: 12]));
  end

  logic v1, int81, first1, last1;
  logic [31:0] c1;
  logic [BLOCK-1:0] p_nan1, p_inf1, p_zero1, p_sign1;
  logic [BLOCK*24-1:0] p_sig1;
  logic [BLOCK*12-1:0] p_exp1;
  logic stall;
  assign stall = out_valid && !out_ready;
  assign in_ready = !stall;

  stc_accumulate #(.N(BLOCK), .EXTRA(EXTRA)) acc (
    .clk(clk), .en(v1 && !stall), .first(first1), .last(last1), .int8(int81), .c(c1),
    .p_nan(p_nan1), .p_inf(p_inf1), .p_zero(p_zero1), .p_sign(p_sign1), .p_sig(p_sig1),
    .p_exp(p_exp1), .x_nan(1'b0), .x_pos_zero(1'b0), .d(out_d));

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
        c1 <= in_c;
        p_nan1 <= m_nan;
        p_inf1 <= m_inf;
        p_zero1 <= m_zero;
        p_sign1 <= m_sign;
        p_sig1 <= m_sig;
        p_exp1 <= m_exp;
      end
    end
  end
endmodule
