//! The deep copy of a game state, written against Lua's C API: bots search on copies, and
//! the simulator's random bot draws a determinization on one every turn, so a copy in Lua
//! (a `type` call per value, a table grown one key at a time, every instruction through the
//! budget's hook) was most of a simulation's time. This one presizes every table and runs
//! without the hook. It copies what prelude.lua's copy does: tables (keys and values) deeply,
//! once each however often they are referenced, with their metatables shared; the model's
//! read-only views and everything that is not a table shared.
//!
//! A copy needs no charge against the instruction budget: it touches each value of the state
//! once, and the state lives in the VM's memory limit, which holds far fewer values than the
//! budget has instructions.

use std::ffi::c_int;

use mlua::ffi::{self, lua_State};

/// Tables nested deeper than this are left to prelude.lua's copy (the native one recurses on
/// the thread's stack): `copy` then returns nothing.
const MAX_DEPTH: u32 = 200;

/// `copy(state, views)`: a deep copy of `state`, or nothing when it nests deeper than
/// [`MAX_DEPTH`]. `views` is prelude.lua's set of the model's read-only views, shared.
///
/// # Safety
/// Called by Lua as a C function. It keeps no Rust value that needs dropping, so a Lua error
/// (out of memory) may unwind through it.
pub unsafe extern "C-unwind" fn copy(l: *mut lua_State) -> c_int {
    unsafe {
        ffi::lua_settop(l, 2);
        if ffi::lua_type(l, 1) != ffi::LUA_TTABLE || is_view(l, 1) {
            ffi::lua_settop(l, 1);
            return 1;
        }
        ffi::lua_createtable(l, 0, 0); // 3: the copy of each table met so far
        if copy_table(l, 1, 0) { 1 } else { 0 }
    }
}

/// Whether the table at `at` is one of the model's views (the set is at index 2).
unsafe fn is_view(l: *mut lua_State, at: c_int) -> bool {
    unsafe {
        ffi::lua_pushvalue(l, at);
        let found = ffi::lua_rawget(l, 2) != ffi::LUA_TNIL;
        ffi::lua_pop(l, 1);
        found
    }
}

/// Whether the value at `at` is a table to copy rather than share.
unsafe fn copied(l: *mut lua_State, at: c_int) -> bool {
    unsafe { ffi::lua_type(l, at) == ffi::LUA_TTABLE && !is_view(l, at) }
}

/// Pushes the copy of the table at (absolute) index `src`; false, with the stack as it was,
/// when it nests too deep.
unsafe fn copy_table(l: *mut lua_State, src: c_int, depth: u32) -> bool {
    unsafe {
        ffi::lua_pushvalue(l, src);
        if ffi::lua_rawget(l, 3) != ffi::LUA_TNIL {
            return true;
        }
        ffi::lua_pop(l, 1);
        if depth >= MAX_DEPTH {
            return false;
        }
        ffi::luaL_checkstack(l, 8, c"a game state too deep to copy".as_ptr());
        // Entries counted first, so that the copy is made at its size.
        let mut entries: c_int = 0;
        ffi::lua_pushnil(l);
        while ffi::lua_next(l, src) != 0 {
            entries = entries.saturating_add(1);
            ffi::lua_pop(l, 1);
        }
        let array = c_int::try_from(ffi::lua_rawlen(l, src))
            .unwrap_or(0)
            .min(entries);
        ffi::lua_createtable(l, array, entries - array);
        let dst = ffi::lua_gettop(l);
        ffi::lua_pushvalue(l, src);
        ffi::lua_pushvalue(l, dst);
        ffi::lua_rawset(l, 3);
        ffi::lua_pushnil(l);
        while ffi::lua_next(l, src) != 0 {
            // dst ... key value
            let value = ffi::lua_gettop(l);
            let key = value - 1;
            if copied(l, value) {
                if !copy_table(l, value, depth + 1) {
                    ffi::lua_settop(l, dst - 1);
                    return false;
                }
                ffi::lua_replace(l, value);
            }
            if copied(l, key) {
                if !copy_table(l, key, depth + 1) {
                    ffi::lua_settop(l, dst - 1);
                    return false;
                }
            } else {
                ffi::lua_pushvalue(l, key);
            }
            ffi::lua_pushvalue(l, value);
            ffi::lua_rawset(l, dst);
            ffi::lua_pop(l, 1);
        }
        if ffi::lua_getmetatable(l, src) != 0 {
            ffi::lua_setmetatable(l, dst);
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use mlua::{Function, Table, Value};

    use super::super::vm::{Script, Vm};

    fn vm() -> Vm {
        let script = Script {
            dir: std::env::temp_dir(),
            source: "return {}".into(),
            model: serde_json::json!({ "params": { "hand": { "value": 4 } } }),
        };
        Vm::new(&script).expect("an empty engine loads")
    }

    /// A state built by `make` in the VM, and its copy.
    fn copied(vm: &Vm, make: &str) -> (Table, Table) {
        let state: Table = vm.run(|| vm.lua.load(make).eval()).expect("a state");
        let copy: Table = vm.run(|| vm.copy.call(&state)).expect("a copy");
        (state, copy)
    }

    #[test]
    fn a_copy_is_deep_shares_what_it_should_and_keeps_the_shape_of_references() {
        let vm = vm();
        let (state, copy) = copied(
            &vm,
            r#"local shared = { 1, 2 }
               local mt = { __index = function() return "default" end }
               local s = setmetatable({ a = shared, b = shared, list = { 1, 2, 3, n = "x" },
                 [{ "key" }] = "value", m = model.params, f = print, [true] = 1.5 }, mt)
               s.self = s
               return s"#,
        );
        let check: Function = vm
            .lua
            .load(
                r#"return function(s, c)
                     return c ~= s and c.a ~= s.a and c.a == c.b and c.a[2] == 2
                       and c.self == c and c.list ~= s.list and c.list[3] == 3 and c.list.n == "x"
                       and getmetatable(c) == getmetatable(s) and c.missing == "default"
                       and c.m == model.params and c.f == print and c[true] == 1.5
                   end"#,
            )
            .eval()
            .unwrap();
        assert!(check.call::<bool>((&state, &copy)).unwrap());
        // The table key is copied too, holding what it held.
        let keys: Vec<Table> = copy
            .pairs::<Value, Value>()
            .filter_map(|p| match p.unwrap() {
                (Value::Table(k), Value::String(v)) if v == "value" => Some(k),
                _ => None,
            })
            .collect();
        assert_eq!(keys.len(), 1);
        assert_eq!(keys[0].raw_get::<String>(1).unwrap(), "key");
        let original = state
            .pairs::<Value, Value>()
            .find_map(|p| match p.unwrap() {
                (Value::Table(k), _) => Some(k),
                _ => None,
            })
            .unwrap();
        assert_ne!(keys[0], original);
        // Changing the copy leaves the state as it was.
        let list: Table = copy.raw_get("list").unwrap();
        list.raw_set(1, 9).unwrap();
        let list: Table = state.raw_get("list").unwrap();
        assert_eq!(list.raw_get::<i64>(1).unwrap(), 1);
    }

    #[test]
    fn a_state_nested_deeper_than_the_native_copy_goes_is_copied_all_the_same() {
        let vm = vm();
        let (_, copy) = copied(
            &vm,
            "local s = {} local t = s for i = 1, 5000 do t.next = { i = i } t = t.next end return s",
        );
        let depth: i64 = vm
            .run(|| {
                vm.lua
                    .load("local n, t = 0, ... while t.next do n, t = n + 1, t.next end return n")
                    .call(&copy)
            })
            .unwrap();
        assert_eq!(depth, 5000);
    }

    #[test]
    fn a_value_that_is_not_a_table_is_its_own_copy() {
        let vm = vm();
        for code in [
            "return 3",
            "return 'text'",
            "return nil",
            "return model.params",
        ] {
            let v: Value = vm.run(|| vm.lua.load(code).eval()).unwrap();
            let c: Value = vm.run(|| vm.copy.call(&v)).unwrap();
            assert_eq!(v, c, "{code}");
        }
    }
}
