; Go: functions, methods (receiver gives the parent), named types,
; interface methods, imports and calls.

(package_clause (package_identifier) @package)

(import_declaration) @import

(function_declaration
  name: (identifier) @name) @definition.function

(method_declaration
  receiver: (parameter_list) @receiver
  name: (field_identifier) @name) @definition.method

(type_spec
  name: (type_identifier) @name
  type: (struct_type)) @definition.struct

(type_spec
  name: (type_identifier) @name
  type: (interface_type)) @definition.interface

(type_spec
  name: (type_identifier) @name
  type: [(type_identifier) (qualified_type) (generic_type) (pointer_type)
         (slice_type) (array_type) (map_type) (channel_type) (function_type)
         (parenthesized_type) (negated_type)]) @definition.type

(type_alias
  name: (type_identifier) @name) @definition.type

; Methods of named interfaces (not of anonymous interface{...} types).
(type_spec
  type: (interface_type
    (method_elem
      name: (field_identifier) @name) @definition.method))

; Calls: f(), x.f(), a.b.f(), generic f[T]() and pkg.F[T]().
(call_expression
  function: (identifier) @call.name) @call

(call_expression
  function: (selector_expression
    operand: (_) @call.receiver
    field: (field_identifier) @call.name)) @call

(call_expression
  function: (index_expression
    operand: (identifier) @call.name)) @call

(call_expression
  function: (index_expression
    operand: (selector_expression
      operand: (_) @call.receiver
      field: (field_identifier) @call.name))) @call

(type_conversion_expression
  type: (generic_type
    type: (type_identifier) @call.name)) @call

(type_conversion_expression
  type: (generic_type
    type: (qualified_type
      package: (package_identifier) @call.receiver
      name: (type_identifier) @call.name))) @call

; Declarations a call graph needs to type receivers: variables, constants,
; parameters, receivers, results, struct fields, range and type-switch
; variables (decoded by goBindings).
(short_var_declaration) @binding
(var_spec) @binding
(const_spec) @binding
(parameter_declaration) @binding
(variadic_parameter_declaration) @binding
(field_declaration) @binding
(range_clause) @binding
(type_switch_statement) @binding
(function_declaration) @binding
(method_declaration) @binding
(method_elem) @binding
