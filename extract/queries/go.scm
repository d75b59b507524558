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
; variables (decoded by goBindings), and the blocks and statements that end
; a variable's scope.
(short_var_declaration) @binding
(var_spec) @binding
(const_spec) @binding
(range_clause) @binding
(type_switch_statement) @binding
(function_declaration) @binding
(method_declaration) @binding
(method_elem) @binding

(function_declaration
  parameters: (parameter_list
    [(parameter_declaration) (variadic_parameter_declaration)] @binding))
(function_declaration
  result: (parameter_list (parameter_declaration) @binding))
(method_declaration
  receiver: (parameter_list (parameter_declaration) @binding))
(method_declaration
  parameters: (parameter_list
    [(parameter_declaration) (variadic_parameter_declaration)] @binding))
(method_declaration
  result: (parameter_list (parameter_declaration) @binding))
(func_literal
  parameters: (parameter_list
    [(parameter_declaration) (variadic_parameter_declaration)] @binding))
(method_elem
  parameters: (parameter_list
    [(parameter_declaration) (variadic_parameter_declaration)] @binding))

; Fields of named struct types (an anonymous struct's would bind names in
; the enclosing function).
(type_spec
  type: (struct_type (field_declaration_list (field_declaration) @binding)))

[(block) (func_literal) (for_statement) (if_statement)
 (expression_switch_statement) (type_switch_statement) (select_statement)
 (expression_case) (type_case) (default_case) (communication_case)] @binding.scope

; Anonymous functions: places (File.Places) outside named functions.
(func_literal) @place
