// Operand selection of one 2:4 group: picks the B elements that the two kept A values
// multiply (the positions idx0, idx1 of the group), and marks the two pruned positions,
// whose A is +0 (their products still count for NaN, inf x 0, and the sign of zero,
// exactly as the uncompressed dense dot product does).
module sp24_operand_select (
  input  logic [63:0] b_group,  // four 16-bit B elements, position 0 in the low bits
  input  logic [1:0]  idx0,
  input  logic [1:0]  idx1,
  output logic [15:0] b0,
  output logic [15:0] b1,
  output logic [3:0]  pruned
);
  always_comb begin
    b0 = b_group[16*idx0 +: 16];
    b1 = b_group[16*idx1 +: 16];
    pruned = ~((4'b0001 << idx0) | (4'b0001 << idx1));
  end
endmodule
