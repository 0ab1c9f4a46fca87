// Exact product of two 16-bit floats (fp16 when bf16 = 0, else bf16), as
// (-1)^sign * sig * 2^exp with a class. Combinational. Products are exact: at most
// 11 x 11 = 22 significand bits; subnormal inputs are kept (no flush), as in the
// a100/h100 presets of models/numerics. With int8 = 1 the low bytes are s8 and the same
// multiplier forms |a| x |b| (sign apart; class finite, exp 0).
module stc_mul16 (
  input  logic        int8,
  input  logic        bf16,
  input  logic [15:0] a,
  input  logic [15:0] b,
  output logic        nan,   // NaN input, or inf x 0
  output logic        inf,
  output logic        zero,
  output logic        sign,
  output logic [23:0] sig,   // exact significand product (22 bits used)
  output logic [11:0] exp    // signed: exponent of sig's least significant bit
);
  // {nan, inf, zero, sig[10:0], exp[11:0]} of one operand
  function automatic logic [25:0] decode(input logic is_bf16, input logic [14:0] x);
    logic [7:0] e;
    logic [9:0] m;
    logic emax;
    logic [11:0] ex;
    logic [10:0] s;
    if (is_bf16) begin
      e = x[14:7];
      m = {3'b000, x[6:0]};
      emax = &x[14:7];
      ex = (e == 8'd0) ? 12'hF7B : (12'(e) - 12'd134);  // -133 for subnormals
      s = (e == 8'd0) ? {1'b0, m} : {4'b0001, x[6:0]};
    end else begin
      e = {3'b000, x[14:10]};
      m = x[9:0];
      emax = &x[14:10];
      ex = (e == 8'd0) ? 12'hFE8 : (12'(e) - 12'd25);  // -24 for subnormals
      s = (e == 8'd0) ? {1'b0, m} : {1'b1, m};
    end
    decode = {emax && (m != 10'd0), emax && (m == 10'd0), (e == 8'd0) && (m == 10'd0), s, ex};
  endfunction

  logic [25:0] da, db;
  logic [7:0] ia, ib;
  logic [10:0] ma, mb;
  logic [21:0] prod;
  always_comb begin
    da = decode(bf16, a[14:0]);
    db = decode(bf16, b[14:0]);
    ia = a[7] ? -a[7:0] : a[7:0];  // |-128| = 128 fits unsigned
    ib = b[7] ? -b[7:0] : b[7:0];
    ma = int8 ? {3'b000, ia} : da[22:12];
    mb = int8 ? {3'b000, ib} : db[22:12];
    prod = 22'(ma) * 22'(mb);
    sign = int8 ? (a[7] ^ b[7]) : (a[15] ^ b[15]);
    nan = !int8 && (da[25] || db[25] || (da[24] && db[23]) || (db[24] && da[23]));
    inf = !int8 && !nan && (da[24] || db[24]);
    zero = !int8 && !nan && !inf && (da[23] || db[23]);
    sig = {2'b00, prod};
    exp = int8 ? 12'd0 : da[11:0] + db[11:0];
  end
endmodule
