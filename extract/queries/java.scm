; Java: types (class, interface, enum, record, annotation type), methods,
; constructors and annotation elements; imports; calls, object creation,
; explicit constructor invocations and method references.
; Declarations inside anonymous class bodies are dropped (lang_java.go).

(package_declaration [(identifier) (scoped_identifier)] @package)

(import_declaration) @import

; Types.

(class_declaration
  name: (identifier) @name) @definition.class

(record_declaration
  name: (identifier) @name) @definition.class

(interface_declaration
  name: (identifier) @name) @definition.interface

(annotation_type_declaration
  name: (identifier) @name) @definition.interface

(enum_declaration
  name: (identifier) @name) @definition.enum

; Anonymous class bodies and enum constant bodies are captured only to be
; dropped by refine, with everything declared in them.

(object_creation_expression
  type: (_) @name
  (class_body)) @definition.class

(enum_constant
  name: (identifier) @name
  body: (class_body)) @definition.class

; Methods and constructors; a function inside a type becomes a method.

(method_declaration
  name: (identifier) @name) @definition.function

(constructor_declaration
  name: (identifier) @name) @definition.function

(compact_constructor_declaration
  name: (identifier) @name) @definition.function

(annotation_type_element_declaration
  name: (identifier) @name) @definition.function

; Calls: f(), x.f(), a.b().f(), super.f(), Foo.<T>f().

(method_invocation
  !object
  name: (identifier) @call.name) @call

(method_invocation
  object: (_) @call.receiver
  name: (identifier) @call.name) @call

; Object creation: new Foo(), new Foo<>(), new a.b.Foo(), outer.new Inner().

(object_creation_expression
  .
  type: [(type_identifier) @call.name
         (generic_type . (type_identifier) @call.name)]) @call

(object_creation_expression
  .
  type: [(scoped_type_identifier (_) @call.receiver . (type_identifier) @call.name .)
         (generic_type
           (scoped_type_identifier (_) @call.receiver . (type_identifier) @call.name .))]) @call

(object_creation_expression
  .
  (primary_expression) @call.receiver
  .
  type: [(type_identifier) @call.name
         (generic_type . (type_identifier) @call.name)]) @call

; this(...) and super(...) in a constructor.

(explicit_constructor_invocation
  constructor: [(this) (super)] @call.name) @call

; Method references name the method they pass on: this::f, Foo::bar,
; Foo::new (a constructor, named Foo).

(method_reference
  (_) @call.receiver . (identifier) @call.name .) @call

(method_reference
  . [(identifier) @call.name
     (type_identifier) @call.name
     (generic_type . (type_identifier) @call.name)
     (field_access object: (_) @call.receiver field: (identifier) @call.name)
     (scoped_type_identifier (_) @call.receiver . (type_identifier) @call.name .)]
  "new") @call

; Declarations with their types, for the call graph: fields, locals,
; parameters, for-each variables, resources, catch parameters and
; pattern variables. Primitive and array types are left out; `var` is
; recorded by its initializer when that creates an object.

(field_declaration
  type: [(type_identifier) (scoped_type_identifier) (generic_type)] @bind.type
  declarator: (variable_declarator name: (identifier) @bind.target) @bind)

(local_variable_declaration
  type: [(type_identifier) (scoped_type_identifier) (generic_type)] @bind.type
  declarator: (variable_declarator name: (identifier) @bind.target) @bind
  (#not-eq? @bind.type "var"))

(local_variable_declaration
  type: (type_identifier) @_var
  declarator: (variable_declarator
    name: (identifier) @bind.target
    value: (object_creation_expression) @bind.value) @bind
  (#eq? @_var "var"))

(formal_parameter
  type: [(type_identifier) (scoped_type_identifier) (generic_type)] @bind.type
  name: (identifier) @bind.target) @bind

(enhanced_for_statement
  type: [(type_identifier) (scoped_type_identifier) (generic_type)] @bind.type
  name: (identifier) @bind.target @bind
  (#not-eq? @bind.type "var"))

(resource
  type: [(type_identifier) (scoped_type_identifier) (generic_type)] @bind.type
  name: (identifier) @bind.target @bind
  (#not-eq? @bind.type "var"))

(catch_formal_parameter
  (catch_type . [(type_identifier) (scoped_type_identifier)] @bind.type .)
  name: (identifier) @bind.target @bind)

(instanceof_expression
  right: [(type_identifier) (scoped_type_identifier) (generic_type)] @bind.type
  name: (identifier) @bind.target @bind)

; Anonymous functions: places (File.Places) outside named functions.
(lambda_expression) @place
