use fuba_grammar::{parse_body, print::print_body};
#[test]
fn smoke() {
    let src = r#"
    let s = ball_area()  # start
    let t = choose "target area" by ct from targets(ct) skip "none"
    let m = modifiers "control check" {
      "start: more": +1 when more(ct, pt, s) and not twice(ct, pt, s),
      "distance": -2 * between(s, t),
    }
    let r = roll 2d6 keep lowest 1 by ct as "initial value"
    if r + m > ball_value() { give_ball(ct) } else if x in [A, B] { set y[ct] += 1 } else { emit "x" { a: 1 } }
    for a in adjacent(s) { if count d in r where d >= 3 > 0 { break } }
    let k = match r { 1 | 6 => "a", 2..5 => "b", _ => "c" }
    let g = choose "guess" by pt secret { "left" => 1, "none" when true => 2 }
    repeat 3 { return }
    special_event[roll d6]
    hook goal_attempt_modifier(ct, s)
    letter(1); settings(2); format(3); index
    "#;
    let b = parse_body(src).unwrap_or_else(|e| panic!("{e:?}"));
    let text = print_body(&b);
    println!("{text}");
    let b2 = parse_body(&text).unwrap_or_else(|e| panic!("{e:?}\n{text}"));
    assert_eq!(b, b2);
}
