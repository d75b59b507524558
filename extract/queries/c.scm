; C: function definitions, prototypes, function-like macros, structs,
; unions, enums, typedefs, #include and calls. lang_c.go's refine hook
; finds the name inside each declarator and drops what is not a symbol.

(preproc_include) @import

; The declarator is the name until refine digs the identifier out of it.
(function_definition
  declarator: (_) @name
  body: (_) @body) @definition.function

; Prototypes, returning values or pointers (symbols in headers only).
(declaration
  declarator: (function_declarator) @name) @definition.function

(declaration
  declarator: (pointer_declarator
    declarator: (function_declarator)) @name) @definition.function

(declaration
  declarator: (pointer_declarator
    declarator: (pointer_declarator
      declarator: (function_declarator))) @name) @definition.function

; A prototype followed by an attribute macro (`int f(void) __THROW;`)
; parses as an ERROR holding its parts; refine checks them.
(ERROR
  (function_declarator) @name @definition.function)

(preproc_function_def
  name: (identifier) @name) @definition.function

; A function whose head a macro writes, at file level:
; SYSCALL_DEFINE1(close, unsigned int, fd) { ... } reads as a call missing
; its ";" and a block. refine names it by the macro's first argument.
(translation_unit
  (expression_statement
    (call_expression function: (identifier) @name)) @definition.function
  .
  (compound_statement) @body)

(preproc_ifdef
  (expression_statement
    (call_expression function: (identifier) @name)) @definition.function
  .
  (compound_statement) @body)

(preproc_if
  (expression_statement
    (call_expression function: (identifier) @name)) @definition.function
  .
  (compound_statement) @body)

(preproc_else
  (expression_statement
    (call_expression function: (identifier) @name)) @definition.function
  .
  (compound_statement) @body)

(struct_specifier
  name: (type_identifier) @name
  body: (_) @body) @definition.struct

(union_specifier
  name: (type_identifier) @name
  body: (_) @body) @definition.struct

(enum_specifier
  name: (type_identifier) @name
  body: (_) @body) @definition.enum

(type_definition
  declarator: (_) @name) @definition.type

; Calls: f(x), s.f(x), p->f(x), a.b->f(x).
(call_expression
  function: (identifier) @call.name) @call

(call_expression
  function: (field_expression
    argument: (_) @call.receiver
    field: (field_identifier) @call.name)) @call
