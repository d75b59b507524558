; Swift: classes, actors, structs, enums, protocols (and their
; requirements), extensions (containers naming the extended type),
; typealiases, functions, init, deinit, subscripts, imports and calls.

(import_declaration) @import

(class_declaration
  declaration_kind: "class"
  name: (type_identifier) @name
  body: (_) @body) @definition.class

(class_declaration
  declaration_kind: "actor"
  name: (type_identifier) @name
  body: (_) @body) @definition.class

(class_declaration
  declaration_kind: "struct"
  name: (type_identifier) @name
  body: (_) @body) @definition.struct

(class_declaration
  declaration_kind: "enum"
  name: (type_identifier) @name
  body: (_) @body) @definition.enum

; `extension T`: members get parent T.
(class_declaration
  declaration_kind: "extension"
  name: (_) @name
  body: (_) @body) @container.type

(protocol_declaration
  name: (type_identifier) @name
  body: (_) @body) @definition.interface

(typealias_declaration
  name: (type_identifier) @name) @definition.type

; The name follows `func`; operators (`static func ==`) are anonymous
; tokens, hence `_`.
(function_declaration
  "func"
  .
  name: _ @name
  body: (_) @body) @definition.function

(protocol_function_declaration
  "func"
  .
  name: _ @name) @definition.function

(init_declaration
  "init" @name) @definition.function

(deinit_declaration
  "deinit" @name) @definition.function

(subscript_declaration
  "subscript" @name) @definition.function

; Calls: f(x), f { closure }, Type(x), a.f(x), self.f(x), super.init(x),
; .f(x), T<U>(x). The grammar reads a subscript a[i] as a call with
; bracketed arguments, so a call's suffix must start with (...) arguments
; or a trailing closure; and it reads `defer { ... }` as a call of defer
; with a trailing closure, hence the one predicate.
;
; Compiling a query for this grammar is slow when a pattern names an
; expression node (navigation_expression, prefix_expression) beside a
; sibling: each such pattern cost 2.5 s of CPU. The patterns below name
; them by their fields instead — `(_ target: ... suffix: ...)` is a
; navigation expression, `(_ target: ... !suffix)` a prefix (or postfix)
; expression — and cost 0.13 s each; the whole query compiles in under
; a second.
(call_expression
  .
  (simple_identifier) @call.name
  .
  (call_suffix
    .
    [(value_arguments . "(") (lambda_literal)])
  (#not-eq? @call.name "defer")) @call

; The grammar binds a prefix operator tighter than a call: `!a.f()` is
; (!a).f(), `-f()` is (-f)(). The operator is not part of the receiver or
; the name. This pattern comes before the general one so that its match is
; the one kept for the call (matches at one node come in pattern order).
(call_expression
  .
  (_
    target: (_
      target: (_) @call.receiver
      !suffix)
    suffix: (navigation_suffix
      suffix: (simple_identifier) @call.name))
  .
  (call_suffix
    .
    [(value_arguments . "(") (lambda_literal)])) @call

(call_expression
  .
  (_
    target: (_) @call.receiver
    suffix: (navigation_suffix
      suffix: (simple_identifier) @call.name))
  .
  (call_suffix
    .
    [(value_arguments . "(") (lambda_literal)])) @call

; .f(x) (implicit member), and -f(x), !f(x) as the grammar parses them.
(call_expression
  .
  (_
    target: (simple_identifier) @call.name
    !suffix)
  .
  (call_suffix
    .
    [(value_arguments . "(") (lambda_literal)])) @call

(constructor_expression
  constructed_type: (user_type
    .
    (type_identifier) @call.name)) @call

; Anonymous functions: places (File.Places) outside named functions.
(lambda_literal) @place
