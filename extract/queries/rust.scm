; Rust: functions, methods (impl blocks are containers naming their
; type), structs, unions, enums, traits, type aliases, inline modules,
; macro_rules!, use declarations, extern crate and calls.

(use_declaration) @import

(extern_crate_declaration) @import

(function_item
  name: (identifier) @name
  body: (_) @body) @definition.function

; Required trait methods and functions of extern blocks.
(function_signature_item
  name: (identifier) @name) @definition.function

(struct_item
  name: (type_identifier) @name) @definition.struct

(union_item
  name: (type_identifier) @name) @definition.struct

(enum_item
  name: (type_identifier) @name) @definition.enum

(trait_item
  name: (type_identifier) @name
  body: (_) @body) @definition.trait

(type_item
  name: (type_identifier) @name) @definition.type

; Associated types of a trait: `type Item;`.
(associated_type
  name: (type_identifier) @name) @definition.type

(mod_item
  name: (identifier) @name
  body: (_) @body) @definition.module

(macro_definition
  name: (identifier) @name) @definition.function

; `impl T` and `impl Trait for T`: methods get parent T.
(impl_item
  type: (_) @name
  body: (_) @body) @container.type

; Calls: f(x), x.f(x), T::f(x), path::f(x), f::<T>(x), x.f::<T>(x).
(call_expression
  function: (identifier) @call.name) @call

(call_expression
  function: (field_expression
    value: (_) @call.receiver
    field: (field_identifier) @call.name)) @call

(call_expression
  function: (scoped_identifier
    path: (_) @call.receiver
    name: (identifier) @call.name)) @call

(call_expression
  function: (generic_function
    function: (identifier) @call.name)) @call

(call_expression
  function: (generic_function
    function: (scoped_identifier
      path: (_) @call.receiver
      name: (identifier) @call.name))) @call

(call_expression
  function: (generic_function
    function: (field_expression
      value: (_) @call.receiver
      field: (field_identifier) @call.name))) @call

; Macro invocations are calls of the macro: println!(...) calls println.
(macro_invocation
  macro: (identifier) @call.name) @call

(macro_invocation
  macro: (scoped_identifier
    path: (_) @call.receiver
    name: (identifier) @call.name)) @call

; Macro arguments are token trees, not expressions. In them a call is an
; identifier followed by a (...) group; a receiver is the single token
; before a "." or "::" in front of it. The outer two levels of groups are
; searched. The patterns with a receiver come first: where two patterns
; match one call, the match of the lower pattern comes first and is kept.
(macro_invocation
  (token_tree
    [(identifier) (self)] @call.receiver
    .
    "."
    .
    (identifier) @call.name
    .
    (token_tree . "(")) @call)

(macro_invocation
  (token_tree
    (identifier) @call.receiver
    .
    "::"
    .
    (identifier) @call.name
    .
    (token_tree . "(")) @call)

(macro_invocation
  (token_tree
    (identifier) @call.name
    .
    (token_tree . "(")) @call)

(macro_invocation
  (token_tree
    (token_tree
      [(identifier) (self)] @call.receiver
      .
      "."
      .
      (identifier) @call.name
      .
      (token_tree . "(")) @call))

(macro_invocation
  (token_tree
    (token_tree
      (identifier) @call.receiver
      .
      "::"
      .
      (identifier) @call.name
      .
      (token_tree . "(")) @call))

(macro_invocation
  (token_tree
    (token_tree
      (identifier) @call.name
      .
      (token_tree . "(")) @call))

; Declarations with types, for the call graph (rustBindings): parameters,
; let statements, struct and enum variant fields, tuple struct patterns;
; a block or match arm ends the names bound in it.
(function_item) @binding

(let_declaration) @binding

(struct_item) @binding

(enum_item) @binding

(tuple_struct_pattern) @binding

(block) @binding.scope

(match_arm) @binding.scope

; Anonymous functions: places (File.Places) outside named functions.
(closure_expression) @place
