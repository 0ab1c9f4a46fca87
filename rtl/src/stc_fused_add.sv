// One fused block of the accumulation model (docs/numerics.md, "Semantics of one fused
// block"): the fp32 accumulator and N exact products are aligned to the leading bit E of
// the largest nonzero term, each truncated toward zero to a multiple of
// 2^(E - 23 - EXTRA), summed exactly (every carry kept), and the sum is rounded once to
// fp32 toward zero (subnormals kept, overflow to the largest finite). Specials: any NaN
// term, or infinities of both signs, give 0x7FFFFFFF; one-signed infinities give that
// infinity; all-zero terms give -0 only when every term is -0; an exact zero sum of
// nonzero terms is +0. Combinational.
module stc_fused_add #(
  parameter int N = 4,      // product terms
  parameter int EXTRA = 1   // alignment bits beyond fp32's 24-bit significand
) (
  input  logic [N-1:0]       p_nan,
  input  logic [N-1:0]       p_inf,
  input  logic [N-1:0]       p_zero,
  input  logic [N-1:0]       p_sign,
  input  logic [N*24-1:0]    p_sig,       // 24 bits per product
  input  logic [N*12-1:0]    p_exp,       // signed 12 bits each: exponent of the sig's lsb
  input  logic               x_nan,       // a further term (not summed) is NaN
  input  logic               x_pos_zero,  // a further term (not summed) is +0
  input  logic [31:0]        acc,
  output logic [31:0]        sum
);
  localparam int T = N + 1;                 // terms: the accumulator and the products
  localparam int W = 24 + EXTRA;            // alignment window, leading bit included
  localparam int SW = W + $clog2(T) + 1;    // signed exact sum of T aligned terms
  localparam int MW = SW - 1;               // its magnitude

  function automatic logic [11:0] msb24(input logic [23:0] x);
    msb24 = 12'd0;
    for (int i = 0; i < 24; i++) if (x[i]) msb24 = 12'(i);
  endfunction
  function automatic logic [11:0] msb_sum(input logic [MW-1:0] x);
    msb_sum = 12'd0;
    for (int i = 0; i < MW; i++) if (x[i]) msb_sum = 12'(i);
  endfunction

  logic [T-1:0] t_nan, t_inf, t_zero, t_sign, t_fin;
  logic [T*24-1:0] t_sig;
  logic [T*12-1:0] t_exp, t_lead;
  logic [7:0] acc_e;
  logic signed [11:0] e_max, shift, lead_r, sub_shift;
  logic [W-1:0] norm, aligned;
  logic signed [SW-1:0] total;
  logic [MW-1:0] mag;
  /* verilator lint_off UNUSEDSIGNAL */  // the leading bit and the truncated tail
  logic [MW-1:0] mag_norm;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [11:0] p;
  logic [22:0] mant;
  logic any_fin, any_nan, pos_inf, neg_inf, all_neg_zero;

  always_comb begin
    acc_e = acc[30:23];
    t_sign[0] = acc[31];
    t_nan[0] = (&acc_e) && (acc[22:0] != 23'd0);
    t_inf[0] = (&acc_e) && (acc[22:0] == 23'd0);
    t_zero[0] = (acc_e == 8'd0) && (acc[22:0] == 23'd0);
    t_sig[23:0] = {acc_e != 8'd0, acc[22:0]};
    t_exp[11:0] = (acc_e == 8'd0) ? 12'hF6B : (12'(acc_e) - 12'd150);  // -149 for subnormals
    for (int i = 0; i < N; i++) begin
      t_nan[i+1] = p_nan[i];
      t_inf[i+1] = p_inf[i];
      t_zero[i+1] = p_zero[i];
      t_sign[i+1] = p_sign[i];
      t_sig[24*(i+1) +: 24] = p_sig[24*i +: 24];
      t_exp[12*(i+1) +: 12] = p_exp[12*i +: 12];
    end

    // E: the leading bit of the largest nonzero finite term
    any_fin = 1'b0;
    e_max = 12'sd0;
    for (int i = 0; i < T; i++) begin
      t_fin[i] = !t_nan[i] && !t_inf[i] && !t_zero[i];
      t_lead[12*i +: 12] = t_exp[12*i +: 12] + msb24(t_sig[24*i +: 24]);
      if (t_fin[i] && (!any_fin || $signed(t_lead[12*i +: 12]) > e_max))
        e_max = $signed(t_lead[12*i +: 12]);
      if (t_fin[i]) any_fin = 1'b1;
    end

    // alignment with truncation, exact signed sum
    total = '0;
    for (int i = 0; i < T; i++) begin
      norm = W'(t_sig[24*i +: 24]) << (12'(W - 1) - msb24(t_sig[24*i +: 24]));
      shift = e_max - $signed(t_lead[12*i +: 12]);
      aligned = ($unsigned(shift) >= 12'(W)) ? '0 : (norm >> shift);
      if (t_fin[i]) total = t_sign[i] ? total - SW'(aligned) : total + SW'(aligned);
    end

    // one rounding to fp32, toward zero; the sum's lsb weighs 2^(e_max - W + 1)
    mag = total[SW-1] ? MW'(-total) : MW'(total);
    p = msb_sum(mag);
    lead_r = e_max - 12'(W - 1) + $signed(p);
    mag_norm = mag << (12'(MW - 1) - p);
    sub_shift = e_max - 12'(W - 1) + 12'sd149;  // mag * 2^sub_shift is the subnormal field
    if (lead_r >= -12'sd126) mant = mag_norm[MW-2 -: 23];
    else if (sub_shift >= 12'sd0) mant = 23'(mag << sub_shift);
    else if ($unsigned(-sub_shift) >= 12'(MW)) mant = 23'd0;
    else mant = 23'(mag >> (-sub_shift));

    any_nan = (|t_nan) || x_nan;
    pos_inf = |(t_inf & ~t_sign);
    neg_inf = |(t_inf & t_sign);
    all_neg_zero = (&t_sign) && !x_pos_zero;
    if (any_nan || (pos_inf && neg_inf)) sum = 32'h7FFF_FFFF;
    else if (pos_inf) sum = 32'h7F80_0000;
    else if (neg_inf) sum = 32'hFF80_0000;
    else if (!any_fin) sum = {all_neg_zero, 31'd0};
    else if (mag == '0) sum = 32'd0;
    else if (lead_r > 12'sd127) sum = {total[SW-1], 31'h7F7F_FFFF};
    else if (lead_r >= -12'sd126) sum = {total[SW-1], 8'(lead_r + 12'sd127), mant};
    else sum = {total[SW-1], 8'd0, mant};
  end
endmodule
