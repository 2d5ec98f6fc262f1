//! The order in which to resolve the types declared in `<types>`: each after every declared type
//! it names, so that resolving one never has to resolve another first. Resolution then never
//! recurses from type to type, however long a chain of refs is, and cycles are found here, in
//! time linear in the schema.

use foldhash::HashMap;

use crate::xml::Element;

/// Declared types in resolution order, and each cycle found, as the names along it (the first
/// name repeated at the end).
pub struct Order<'a> {
    pub order: Vec<&'a str>,
    pub cycles: Vec<Vec<&'a str>>,
}

#[derive(Clone, Copy)]
enum State {
    /// Being visited: on the walk's stack, at this index.
    Active(usize),
    Done,
}

/// Visits `roots` (declared names, in declaration order) depth first, without recursion.
pub fn resolution_order<'a>(
    declared: &HashMap<String, &'a Element<'a>>,
    roots: &[&'a str],
) -> Order<'a> {
    let mut state: HashMap<&str, State> = HashMap::default();
    let mut order = Vec::new();
    let mut cycles = Vec::new();
    // Each frame: a type, the declared types it names, and how many of those are visited.
    let mut stack: Vec<(&'a str, Vec<&'a str>, usize)> = Vec::new();
    for &root in roots {
        if state.contains_key(root) {
            continue;
        }
        state.insert(root, State::Active(0));
        stack.push((root, names_used(declared, root), 0));
        while let Some((name, used, next)) = stack.last_mut() {
            let Some(&dep) = used.get(*next) else {
                state.insert(name, State::Done);
                order.push(*name);
                stack.pop();
                continue;
            };
            *next += 1;
            match state.get(dep) {
                None => {
                    state.insert(dep, State::Active(stack.len()));
                    stack.push((dep, names_used(declared, dep), 0));
                }
                Some(State::Active(at)) => {
                    let mut cycle: Vec<&str> = stack[*at..].iter().map(|f| f.0).collect();
                    cycle.push(dep);
                    cycles.push(cycle);
                }
                Some(State::Done) => {}
            }
        }
    }
    Order { order, cycles }
}

/// The declared types that the type `name` names: in refs, enum and set encoding types and
/// `valueRef`s, anywhere in its element.
fn names_used<'a>(declared: &HashMap<String, &'a Element<'a>>, name: &str) -> Vec<&'a str> {
    let mut used = Vec::new();
    let mut elements: Vec<&'a Element<'a>> = declared.get(name).copied().into_iter().collect();
    while let Some(el) = elements.pop() {
        let named = match el.name {
            "ref" => el.value("type"),
            "enum" | "set" => el.value("encodingType"),
            "type" => el
                .value("valueRef")
                .and_then(|v| v.split_once('.'))
                .map(|(e, _)| e),
            _ => None,
        };
        if let Some(n) = named.map(str::trim).filter(|n| declared.contains_key(*n)) {
            used.push(n);
        }
        elements.extend(el.children.iter().rev());
    }
    used
}
