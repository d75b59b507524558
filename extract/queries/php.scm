; PHP: namespace (the module), classes, interfaces, traits, enums,
; functions and methods, use/include/require imports and calls.

(namespace_definition
  name: (namespace_name) @package)

(namespace_use_declaration) @import
(include_expression) @import
(include_once_expression) @import
(require_expression) @import
(require_once_expression) @import

(class_declaration
  name: (name) @name) @definition.class

(interface_declaration
  name: (name) @name) @definition.interface

(trait_declaration
  name: (name) @name) @definition.trait

(enum_declaration
  name: (name) @name) @definition.enum

(function_definition
  name: (name) @name) @definition.function

; Methods of anonymous classes (`new class { ... }`) are dropped by refine:
; calls in them belong to the enclosing named symbol.
(method_declaration
  name: (name) @name) @definition.method

; Calls: f(), \ns\f(), $o->m(), $o?->m(), A::m(), parent::m(), new X,
; new \ns\X. Calls of variables ($f(), $o->$m()) have no name.
(function_call_expression
  function: (name) @call.name) @call

(function_call_expression
  function: (qualified_name
    (namespace_name_as_prefix (namespace_name)? @call.receiver)
    (name) @call.name)) @call

(member_call_expression
  object: (_) @call.receiver
  name: (name) @call.name) @call

(nullsafe_member_call_expression
  object: (_) @call.receiver
  name: (name) @call.name) @call

(scoped_call_expression
  scope: (_) @call.receiver
  name: (name) @call.name) @call

(object_creation_expression
  (name) @call.name) @call

(object_creation_expression
  (qualified_name
    (namespace_name_as_prefix (namespace_name)? @call.receiver)
    (name) @call.name)) @call

; Anonymous functions: places (File.Places) outside named functions.
(anonymous_function_creation_expression) @place
(arrow_function) @place
