; Scala 2 and 3: classes, objects, traits, enums, type definitions, givens,
; package objects, functions; extension blocks name the parent of their
; methods; imports; calls, instance creation, infix method calls and
; superclass constructor calls.

; The first package clause; lang_scala.go reads chained clauses
; ("package a" then "package b") from the source.
(compilation_unit
  (package_clause name: (package_identifier) @package))

(import_declaration) @import

; Types.

(class_definition
  name: (identifier) @name) @definition.class

(object_definition
  name: (identifier) @name) @definition.object

(package_object
  name: (identifier) @name) @definition.object

(trait_definition
  name: (identifier) @name) @definition.trait

(enum_definition
  name: (identifier) @name) @definition.enum

(type_definition
  name: (type_identifier) @name) @definition.type

; A given is a singleton instance. An anonymous given is named as Scala
; names it, "given_Ordering_String" (lang_scala.go).
(given_definition
  "given" @name) @definition.object

; extension (s: String) { def shout ... }: the receiver type names the
; parent of the methods inside.
(extension_definition
  parameters: (parameters . (parameter type: (_) @name))) @container.type

; Anonymous classes (new T { ... }) are captured only to be dropped by
; refine, with everything declared in them.
(instance_expression
  "new" @name
  (template_body)) @definition.class

; Functions; inside a type they become methods.

(function_definition
  name: (_) @name) @definition.function

(function_declaration
  name: (_) @name) @definition.function

; Calls: f(x), x.f(y), f[T](x), x.f[T](y), f { ... }; this(...) in an
; auxiliary constructor is a call named "this".

(call_expression
  function: [(identifier) @call.name
             (generic_function function: (identifier) @call.name)]) @call

(call_expression
  function: [(field_expression
              value: (_) @call.receiver
              field: (identifier) @call.name)
             (generic_function
               function: (field_expression
                 value: (_) @call.receiver
                 field: (identifier) @call.name))]) @call

; Infix method calls with an alphanumeric name: xs map f, a shouldBe b.
(infix_expression
  left: (_) @call.receiver
  operator: (identifier) @call.name) @call

; Instance creation: new Foo, new Foo[T](x), new a.b.Foo().

(instance_expression
  [(type_identifier) @call.name
   (generic_type type: (type_identifier) @call.name)
   (stable_type_identifier (_) @call.receiver . (type_identifier) @call.name .)
   (generic_type
     type: (stable_type_identifier (_) @call.receiver . (type_identifier) @call.name .))]) @call

; The superclass constructor call: class A extends Base(x).
(extends_clause
  type: [(type_identifier) @call.name
         (generic_type type: (type_identifier) @call.name)]
  .
  arguments: (arguments)) @call

; Anonymous functions: places (File.Places) outside named functions.
(lambda_expression) @place
