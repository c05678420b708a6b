// Bridge self-test top: one input and one registered output per Verilator storage class
// (CData 1..8, SData 9..16, IData 17..32, QData 33..64, VlWide 65+) and their edges, so
// sim/tests prove that every width round-trips bit for bit through the generated shim.
// Outputs: qN registers dN; n1056 = ~d1056 and the orN reductions are combinational.
// Hand-written on purpose: it tests the bridge, not the cdma RTL.
module cdma_sim_widths (
    input clock,
    input rst,
    input [0:0] d1,
    input [6:0] d7,
    input [7:0] d8,
    input [8:0] d9,
    input [15:0] d16,
    input [16:0] d17,
    input [31:0] d32,
    input [32:0] d33,
    input [62:0] d63,
    input [63:0] d64,
    input [64:0] d65,
    input [95:0] d96,
    input [1055:0] d1056,
    output reg [0:0] q1,
    output reg [6:0] q7,
    output reg [7:0] q8,
    output reg [8:0] q9,
    output reg [15:0] q16,
    output reg [16:0] q17,
    output reg [31:0] q32,
    output reg [32:0] q33,
    output reg [62:0] q63,
    output reg [63:0] q64,
    output reg [64:0] q65,
    output reg [95:0] q96,
    output reg [1055:0] q1056,
    output [1055:0] n1056,
    output or7,
    output or33,
    output or65,
    output reg [31:0] cycles
);
    // Combinational output: proves eval() settles logic without a clock edge.
    assign n1056 = ~d1056;
    // Reductions see every storage bit: they prove the setters clear bits above the width.
    assign or7 = |d7;
    assign or33 = |d33;
    assign or65 = |d65;
    always @(posedge clock) begin
        if (rst) begin
            q1 <= 1'd0;
            q7 <= 7'd0;
            q8 <= 8'd0;
            q9 <= 9'd0;
            q16 <= 16'd0;
            q17 <= 17'd0;
            q32 <= 32'd0;
            q33 <= 33'd0;
            q63 <= 63'd0;
            q64 <= 64'd0;
            q65 <= 65'd0;
            q96 <= 96'd0;
            q1056 <= 1056'd0;
            cycles <= 32'd0;
        end else begin
            q1 <= d1;
            q7 <= d7;
            q8 <= d8;
            q9 <= d9;
            q16 <= d16;
            q17 <= d17;
            q32 <= d32;
            q33 <= d33;
            q63 <= d63;
            q64 <= d64;
            q65 <= d65;
            q96 <= d96;
            q1056 <= d1056;
            cycles <= cycles + 32'd1;
        end
    end
endmodule
