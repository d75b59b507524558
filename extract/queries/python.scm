; Python: classes, functions (methods when directly in a class), imports
; and calls. Decorators are wrappers (see lang_python.go).

(class_definition
  name: (identifier) @name) @definition.class

(function_definition
  name: (identifier) @name) @definition.function

(import_statement) @import
(import_from_statement) @import
(future_import_statement) @import

(call
  function: (identifier) @call.name) @call

(call
  function: (attribute
    object: (_) @call.receiver
    attribute: (identifier) @call.name)) @call

; A decorator is called with the function it decorates.
(decorator
  (identifier) @call.name) @call

(decorator
  (attribute
    object: (_) @call.receiver
    attribute: (identifier) @call.name)) @call
