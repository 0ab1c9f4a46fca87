// One 2:4 metadata nibble (PTX ISA 9.7.14.6.1): bits [1:0] = position of the first kept
// element, [3:2] = the second. Under mma.sp::ordered_metadata the positions must
// increase (first < second); `invalid` flags the ten nibbles that break it
// (docs/sparse_formats.md, "Metadata nibbles"). The indices are passed on as they are:
// the datapath places the first kept value at idx0 whatever the order (plain mma.sp).
module sp24_meta_decode (
  input  logic [3:0] nibble,
  output logic [1:0] idx0,
  output logic [1:0] idx1,
  output logic       invalid
);
  assign idx0 = nibble[1:0];
  assign idx1 = nibble[3:2];
  assign invalid = !(nibble[1:0] < nibble[3:2]);
endmodule
