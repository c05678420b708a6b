use super::*;
use crate::top::fixtures::port;

const HEADER: &str = "\
class Vt VL_NOT_FINAL : public VerilatedModel {
  public:
    VL_IN8(&clock,0,0);
    VL_IN64(&d40,39,0);
    VL_OUTW(&q100,99,0,4);
    Vt(VerilatedContext* contextp, const char* name = \"TOP\");
};
";

#[test]
fn header_ports_are_read_with_widths_and_directions() {
    let ports = parse_header_ports(HEADER, "t").unwrap();
    let got: Vec<_> = ports
        .iter()
        .map(|p| (p.name.as_str(), p.width, p.dir, p.doc.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            ("clock", 1, Dir::In, "1-bit input port."),
            ("d40", 40, Dir::In, "40-bit input port."),
            ("q100", 100, Dir::Out, "100-bit output port."),
        ]
    );
}

#[test]
fn header_without_ports_or_with_inout_is_refused() {
    let e = parse_header_ports("class Vt {};\n", "t").unwrap_err();
    assert_eq!(e, "t: no ports found in the Verilated header");
    let e = parse_header_ports("VL_INOUT8(&x,0,0);", "t").unwrap_err();
    assert!(e.starts_with("t: inout ports are not supported"), "{e}");
    let e = parse_header_ports("VL_IN8(&x,0,1);", "t").unwrap_err();
    assert_eq!(e, "t: cannot parse port declaration `VL_IN8(&x,0,1);`");
}

#[test]
fn port_list_mismatches_are_listed() {
    let given = [port("clock", 1, Dir::In), port("a", 8, Dir::In)];
    assert_eq!(check_ports("t", &given, &given), Ok(()));
    let actual = [
        port("clock", 1, Dir::In),
        port("a", 9, Dir::In),
        port("b", 1, Dir::Out),
    ];
    let e = check_ports("t", &given, &actual).unwrap_err();
    assert!(
        e.contains("  port a: port list says In 8 bits, Verilog says In 9 bits\n"),
        "{e}"
    );
    assert!(
        e.contains("  Verilog port b (Out, 1 bits) is not in the port list\n"),
        "{e}"
    );
    let twice = [port("clock", 1, Dir::In), port("clock", 1, Dir::In)];
    let e = check_ports("t", &twice, &given).unwrap_err();
    assert_eq!(e, "t: the HDL port list names a port twice");
}

#[test]
fn port_names_must_fit_the_wrapper() {
    let clock = port("clock", 1, Dir::In);
    assert_eq!(check_port_names("t", std::slice::from_ref(&clock)), Ok(()));
    let e = check_port_names("t", &[clock.clone(), port("tick", 1, Dir::Out)]).unwrap_err();
    assert_eq!(
        e,
        "t: port tick clashes with a method of the generated wrapper"
    );
    let e = check_port_names("t", &[clock.clone(), port("words", 1, Dir::In)]).unwrap_err();
    assert_eq!(
        e,
        "t: port words clashes with a method of the generated wrapper"
    );
    let e = check_port_names(
        "t",
        &[
            clock.clone(),
            port("x", 1, Dir::In),
            port("set_x", 1, Dir::Out),
        ],
    )
    .unwrap_err();
    assert_eq!(
        e,
        "t: the setter of port x clashes with the getter of port set_x"
    );
    let e = check_port_names("t", &[clock, port("Bad", 1, Dir::In)]).unwrap_err();
    assert!(e.starts_with("t: port name \"Bad\" is not"), "{e}");
    let e = check_port_names("t", &[port("clock", 2, Dir::In)]).unwrap_err();
    assert_eq!(e, "t: needs a 1-bit input port `clock` (tick() drives it)");
}
