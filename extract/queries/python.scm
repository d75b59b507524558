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
  function: (identifier) @call.name
  arguments: (_) @call.args) @call

(call
  function: (attribute
    object: (_) @call.receiver
    attribute: (identifier) @call.name)
  arguments: (_) @call.args) @call

; A called expression that is not a name: f()(), d["k"](), (a or b)().
(call
  function: [(call) (subscript) (parenthesized_expression)] @call.callee
  arguments: (_) @call.args) @call

; raise A instantiates A.
(raise_statement
  (identifier) @call.name) @call

(raise_statement
  (attribute
    object: (_) @call.receiver
    attribute: (identifier) @call.name)) @call

; A decorator is called with the function it decorates.
(decorator
  (identifier) @call.name) @call

(decorator
  (attribute
    object: (_) @call.receiver
    attribute: (identifier) @call.name)) @call

; Bindings the call graph follows: assignments (chained ones nest),
; for-loop targets, returns and yields, decorators.
(assignment
  left: (_) @bind.target
  right: (_) @bind.value) @bind

(for_statement
  left: (_) @bind.target
  right: (_) @bind.iter) @bind

(return_statement
  (_) @bind.value) @bind

; An annotated parameter declares its type: `def f(seen: set)`.
(typed_parameter
  (identifier) @bind.target
  type: (_) @bind.type) @bind

(typed_default_parameter
  name: (identifier) @bind.target
  type: (_) @bind.type) @bind

(yield
  (_) @bind.value) @bind

(decorated_definition
  (decorator
    (_) @bind.decorator)
  definition: [
    (function_definition name: (identifier) @bind.target)
    (class_definition name: (identifier) @bind.target)
  ]) @bind

; A lambda bound to a name (`f = lambda x: ...`, also a class attribute)
; is a function named by its binding; other lambdas stay folded into the
; function around them.
(assignment
  left: (identifier) @name
  right: (lambda) @definition.function)

; Anonymous functions: places (File.Places) outside named functions.
(lambda) @place
