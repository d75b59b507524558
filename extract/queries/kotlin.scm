; Kotlin: classes, interfaces, enum classes, objects and companion objects,
; type aliases, functions (extension functions take the receiver type as
; parent in lang_kotlin.go) and secondary constructors; imports; calls,
; constructor delegation, superclass constructor calls and callable
; references. The grammar has no fields, so children are matched by type.

(package_header (identifier) @package)

(import_header) @import

; Types. An enum class is a class with an enum_class_body; lang_kotlin.go
; makes it an enum.

(class_declaration
  "class"
  (type_identifier) @name
  [(class_body) (enum_class_body)]? @body) @definition.class

(class_declaration
  "interface"
  (type_identifier) @name
  (class_body)? @body) @definition.interface

(object_declaration
  (type_identifier) @name
  (class_body)? @body) @definition.object

; The name of a companion object is its type_identifier if it has one,
; else "Companion" (lang_kotlin.go).
(companion_object
  "object" @name
  (class_body)? @body) @definition.object

(type_alias
  (type_identifier) @name) @definition.type

; Object expressions and enum entries with a body are captured only to be
; dropped by refine, with everything declared in them.

(object_literal
  "object" @name) @definition.class

(enum_entry
  (simple_identifier) @name
  (class_body)) @definition.class

; Functions; inside a type they become methods. A secondary constructor is
; named after its class (lang_kotlin.go).

(function_declaration
  (simple_identifier) @name
  (function_body)? @body) @definition.function

(secondary_constructor
  "constructor" @name) @definition.function

; Calls: f(), f<T>(), x.f(), x?.f(), a.b().f(), super.f(), Foo(...)
; (a constructor call looks like any other call).

(call_expression
  .
  (simple_identifier) @call.name) @call

(call_expression
  .
  (navigation_expression
    (_) @call.receiver
    .
    (navigation_suffix (simple_identifier) @call.name)
    .)) @call

; this(...) and super(...) after a secondary constructor.

(constructor_delegation_call ["this" "super"] @call.name) @call

; The superclass constructor call in a class header: class A : Base(x).

(delegation_specifier
  (constructor_invocation
    (user_type (type_identifier) @call.name .))) @call

; Callable references name what they pass on: ::f, Foo::bar, this::f.

(callable_reference
  (type_identifier)? @call.receiver
  .
  (simple_identifier) @call.name) @call

(navigation_expression
  (_) @call.receiver
  .
  (navigation_suffix "::" (simple_identifier) @call.name)
  .) @call

; Declarations with their types, for the call graph: properties (in a
; class, at the top level or local), primary constructor parameters,
; function parameters, for-loop variables and catch parameters. A
; property without a type is recorded by its initializer when that is a
; call, which may be a constructor call.

(property_declaration
  (variable_declaration
    (simple_identifier) @bind.target
    [(user_type) (nullable_type)] @bind.type) @bind)

(property_declaration
  (variable_declaration
    (simple_identifier) @bind.target
    .) @bind
  .
  (call_expression) @bind.value)

(class_parameter
  (simple_identifier) @bind.target @bind
  .
  [(user_type) (nullable_type)] @bind.type)

(parameter
  (simple_identifier) @bind.target @bind
  .
  [(user_type) (nullable_type)] @bind.type)

(for_statement
  (variable_declaration
    (simple_identifier) @bind.target
    [(user_type) (nullable_type)] @bind.type) @bind)

(catch_block
  (simple_identifier) @bind.target @bind
  .
  (user_type) @bind.type)

; Anonymous functions: places (File.Places) outside named functions.
(lambda_literal) @place
(anonymous_function) @place
