// One register stage of a tensor core's operand path: BITS wide (the B operand's bytes or
// the metadata bits delivered per cycle), valid/ready, refilled whenever it empties or its
// word is taken. Not in the dot units' datapath: the area model (rtl/synth/area_table.sh,
// docs/rtl.md) synthesizes it over the swept widths to price an operand path per bit.
module stc_operand_stage #(
  parameter int BITS = 512
) (
  input  logic            clk,
  input  logic            rst_n,
  input  logic            in_valid,
  output logic            in_ready,
  input  logic [BITS-1:0] in_data,
  output logic            out_valid,
  input  logic            out_ready,
  output logic [BITS-1:0] out_data
);
  assign in_ready = !out_valid || out_ready;
  always_ff @(posedge clk or negedge rst_n)
    if (!rst_n) out_valid <= 1'b0;
    else if (in_ready) out_valid <= in_valid;
  always_ff @(posedge clk)
    if (in_ready && in_valid) out_data <= in_data;
endmodule
