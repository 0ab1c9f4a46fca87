// The accumulate stage (stage 2) of sp24_dot and dense_dot: one beat's N registered
// product terms added as one fused block of the accumulation model into the fp32
// accumulator (stc_fused_add), or with the s8 path exactly into the s32 one
// (stc_int_add); the accumulator register is shared by both. `first` starts the dot
// product from c instead of the accumulator, `last` also writes the sum to d. The
// registers have no reset and change only on `en` (a beat in the stage and the pipeline
// not stalled); the valid/ready control stays with the unit.
module stc_accumulate #(
  parameter int N = 4,      // product terms per beat
  parameter int EXTRA = 1   // alignment bits beyond fp32's 24-bit significand
) (
  input  logic            clk,
  input  logic            en,
  input  logic            first,
  input  logic            last,
  input  logic            int8,        // s32 sum instead of the fp32 fused add
  input  logic [31:0]     c,
  input  logic [N-1:0]    p_nan,
  input  logic [N-1:0]    p_inf,
  input  logic [N-1:0]    p_zero,
  input  logic [N-1:0]    p_sign,
  input  logic [N*24-1:0] p_sig,
  input  logic [N*12-1:0] p_exp,
  input  logic            x_nan,       // stc_fused_add: a further term (not summed) is NaN
  input  logic            x_pos_zero,  // stc_fused_add: a further term (not summed) is +0
  output logic [31:0]     d
);
  logic [31:0] acc_q, acc_in, block_sum, fp_sum, int_sum;
  assign acc_in = first ? c : acc_q;
  stc_fused_add #(.N(N), .EXTRA(EXTRA)) adder (
    .p_nan(p_nan), .p_inf(p_inf), .p_zero(p_zero), .p_sign(p_sign), .p_sig(p_sig),
    .p_exp(p_exp), .x_nan(x_nan), .x_pos_zero(x_pos_zero), .acc(acc_in), .sum(fp_sum));
  stc_int_add #(.N(N)) int_adder (.p_sign(p_sign), .p_sig(p_sig), .acc(acc_in), .sum(int_sum));
  assign block_sum = int8 ? int_sum : fp_sum;

  always_ff @(posedge clk) begin
    if (en) begin
      acc_q <= block_sum;
      if (last) d <= block_sum;
    end
  end
endmodule
