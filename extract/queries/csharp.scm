; C#: namespaces, types (class, record, struct, interface, enum, delegate),
; methods, constructors, destructors, operators and local functions;
; using directives; invocations, object creation and constructor
; initializers.

; The module: a file-scoped namespace, or the mere presence of a block
; namespace at the top level (the capture is the keyword "namespace", which
; lang_csharp.go reads as "no module name").
(file_scoped_namespace_declaration
  name: (_) @package)

(compilation_unit
  (namespace_declaration "namespace" @package))

(using_directive) @import

(namespace_declaration
  name: (_) @name) @definition.namespace

; Types. A record with "struct" becomes a struct in lang_csharp.go.

(class_declaration
  name: (identifier) @name) @definition.class

(record_declaration
  name: (identifier) @name) @definition.class

(struct_declaration
  name: (identifier) @name) @definition.struct

(interface_declaration
  name: (identifier) @name) @definition.interface

(enum_declaration
  name: (identifier) @name) @definition.enum

(delegate_declaration
  name: (identifier) @name) @definition.type

; Functions; inside a type they become methods. Destructors and operators
; are renamed in lang_csharp.go: "~Foo", "operator +", "operator int".

(method_declaration
  name: (identifier) @name) @definition.function

(constructor_declaration
  name: (identifier) @name) @definition.function

(destructor_declaration
  name: (identifier) @name) @definition.function

(operator_declaration
  operator: _ @name) @definition.function

(conversion_operator_declaration
  type: (_) @name) @definition.function

(local_function_statement
  name: (identifier) @name) @definition.function

; Calls: F(), F<T>(), x.F(), this.F(), base.F(), a?.F().

(invocation_expression
  function: [(identifier) @call.name
             (generic_name . (identifier) @call.name)]) @call

(invocation_expression
  function: (member_access_expression
    expression: _ @call.receiver
    name: [(identifier) @call.name
           (generic_name . (identifier) @call.name)])) @call

(invocation_expression
  function: (conditional_access_expression
    condition: (_) @call.receiver
    (member_binding_expression
      name: [(identifier) @call.name
             (generic_name . (identifier) @call.name)]))) @call

; Object creation: new Foo(), new List<int>(), new A.B.Foo().

(object_creation_expression
  type: [(identifier) @call.name
         (generic_name . (identifier) @call.name)
         (qualified_name
           qualifier: (_) @call.receiver
           name: [(identifier) @call.name
                  (generic_name . (identifier) @call.name)])]) @call

; ": base(...)" and ": this(...)" before a constructor body.

(constructor_initializer ["base" "this"] @call.name) @call

; Declarations with their types, for the call graph: fields, properties,
; locals, using-statement variables, parameters (primary constructor ones
; included), foreach variables and catch variables. Predefined and array
; types are left out; `var` is recorded by its initializer when that
; creates an object.

(variable_declaration
  type: [(identifier) (qualified_name) (generic_name) (nullable_type) (alias_qualified_name)] @bind.type
  (variable_declarator name: (identifier) @bind.target) @bind)

(variable_declaration
  type: (implicit_type)
  (variable_declarator
    name: (identifier) @bind.target
    (object_creation_expression) @bind.value) @bind)

(property_declaration
  type: [(identifier) (qualified_name) (generic_name) (nullable_type) (alias_qualified_name)] @bind.type
  name: (identifier) @bind.target @bind)

(parameter
  type: [(identifier) (qualified_name) (generic_name) (nullable_type) (alias_qualified_name)] @bind.type
  name: (identifier) @bind.target) @bind

(foreach_statement
  type: [(identifier) (qualified_name) (generic_name) (nullable_type) (alias_qualified_name)] @bind.type
  left: (identifier) @bind.target @bind)

(catch_declaration
  type: [(identifier) (qualified_name) (generic_name)] @bind.type
  name: (identifier) @bind.target @bind)

; Anonymous functions: places (File.Places) outside named functions.
(lambda_expression) @place
(anonymous_method_expression) @place
