; C++: namespaces, classes, structs, unions, enums, typedefs, aliases,
; concepts, functions and methods (definitions everywhere, declarations in
; headers only), function-like macros, #include and calls. lang_cpp.go's
; refine hook finds the name inside each declarator, splits qualified
; names and drops what is not a symbol.

(preproc_include) @import

(namespace_definition
  name: (_) @name
  body: (_) @body) @definition.namespace

; Anonymous namespaces are captured (and dropped by refine) so that the
; exported hook sees them among the enclosing declarations.
(namespace_definition
  "namespace" @name
  !name
  body: (_) @body) @definition.namespace

(class_specifier
  name: (_) @name
  body: (_) @body) @definition.class

(struct_specifier
  name: (_) @name
  body: (_) @body) @definition.struct

(union_specifier
  name: (_) @name
  body: (_) @body) @definition.struct

(enum_specifier
  name: (_) @name
  body: (_) @body) @definition.enum

(type_definition
  declarator: (_) @name) @definition.type

(alias_declaration
  name: (type_identifier) @name) @definition.type

(concept_definition
  name: (identifier) @name) @definition.type

; Definitions, including `= default`, `= delete` and pure virtual members
; that have no body. The declarator is the name until refine digs the
; identifier out of it.
(function_definition
  declarator: (_) @name) @definition.function

; Declarations: prototypes and member functions (symbols in headers only).
(declaration
  declarator: [(function_declarator) (operator_cast)] @name) @definition.function

(declaration
  declarator: [(pointer_declarator) (reference_declarator)] @name) @definition.function

(field_declaration
  declarator: [(function_declarator) (operator_cast)] @name) @definition.function

(field_declaration
  declarator: [(pointer_declarator) (reference_declarator)] @name) @definition.function

; A prototype followed by an attribute macro (`int f(void) NOEXCEPT_MACRO;`)
; parses as an ERROR holding its parts; refine checks them.
(ERROR
  (function_declarator) @name @definition.function)

(preproc_function_def
  name: (identifier) @name) @definition.function

; Calls: f(x), s.f(x), p->f(x), this->f(x), f<T>(x), s.f<T>(x).
(call_expression
  function: (identifier) @call.name) @call

; The grammar reads the casts static_cast<T>(x) etc. as template calls;
; they are not calls, hence the predicates (on this pattern only).
(call_expression
  function: (template_function
    name: (identifier) @call.name)
  (#not-eq? @call.name "static_cast")
  (#not-eq? @call.name "dynamic_cast")
  (#not-eq? @call.name "const_cast")
  (#not-eq? @call.name "reinterpret_cast")) @call

(call_expression
  function: (field_expression
    argument: (_) @call.receiver
    field: (field_identifier) @call.name)) @call

(call_expression
  function: (field_expression
    argument: (_) @call.receiver
    field: (template_method
      name: (field_identifier) @call.name))) @call

; A::f(x), A::f<T>(x); for a longer qualifier the receiver is its last
; part: ns::A::f(x) has receiver A.
(call_expression
  function: (qualified_identifier
    scope: (_) @call.receiver
    name: (identifier) @call.name)) @call

(call_expression
  function: (qualified_identifier
    scope: (_) @call.receiver
    name: (template_function
      name: (identifier) @call.name))) @call

(call_expression
  function: (qualified_identifier
    name: (qualified_identifier
      scope: (_) @call.receiver
      name: (identifier) @call.name))) @call

(call_expression
  function: (qualified_identifier
    name: (qualified_identifier
      scope: (_) @call.receiver
      name: (template_function
        name: (identifier) @call.name)))) @call

(call_expression
  function: (qualified_identifier
    name: (qualified_identifier
      name: (qualified_identifier
        scope: (_) @call.receiver
        name: (identifier) @call.name)))) @call

; Constructor calls: new Foo(x), new Foo<T>(x), new ns::Foo(x).
(new_expression
  type: (type_identifier) @call.name) @call

(new_expression
  type: (template_type
    name: (type_identifier) @call.name)) @call

(new_expression
  type: (qualified_identifier
    scope: (_) @call.receiver
    name: (type_identifier) @call.name)) @call

(new_expression
  type: (qualified_identifier
    scope: (_) @call.receiver
    name: (template_type
      name: (type_identifier) @call.name))) @call

; Anonymous functions: places (File.Places) outside named functions.
(lambda_expression) @place
