; JavaScript: declarations, imports and calls. Conventions are documented
; in lang_javascript.go; queries/typescript.scm repeats these patterns with
; the TypeScript node names and adds the TypeScript declarations.

; ---- Imports: in queries/javascript_shared.scm.

; ---- Functions and classes.

(function_declaration
  name: (identifier) @name) @definition.function

(generator_function_declaration
  name: (identifier) @name) @definition.function

(class_declaration
  name: (identifier) @name) @definition.class

; const f = () => {}, const f = function () {}, const C = class {}.
(variable_declarator
  name: (identifier) @name
  value: [(arrow_function body: (_) @body)
          (function_expression body: (_) @body)
          (generator_function body: (_) @body)]) @definition.function

; const f = (() => {}), and var proto = module.exports = function () {}:
; the function is bound to the variable too.
(variable_declarator
  name: (identifier) @name
  value: [(parenthesized_expression
            [(arrow_function body: (_) @body)
             (function_expression body: (_) @body)])
          (assignment_expression
            right: [(arrow_function body: (_) @body)
                    (function_expression body: (_) @body)
                    (generator_function body: (_) @body)])]) @definition.function

(variable_declarator
  name: (identifier) @name
  value: (class body: (_) @body)) @definition.class

; static Builder = class {…}
(field_definition
  property: (_) @name
  value: (class body: (_) @body)) @definition.class

; React components wrapped in memo or forwardRef, also nested:
; const X = memo(forwardRef((props, ref) => …)). The refine hook drops other
; callees: a function passed to a call does not make its result a function.
(variable_declarator
  name: (identifier) @name
  value: (call_expression
    arguments: (arguments
      .
      [(arrow_function body: (_) @body)
       (function_expression body: (_) @body)
       (call_expression
         arguments: (arguments
           .
           [(arrow_function body: (_) @body)
            (function_expression body: (_) @body)]))]))) @definition.function

; Anonymous default exports are named "default".
(export_statement
  "default" @name
  value: [(function_expression) (arrow_function) (generator_function)] @definition.function)

(export_statement
  "default" @name
  value: (class) @definition.class)

(export_statement
  "default" @name
  value: (object) @definition.object @body)

; Foo.prototype.m = function, Foo.m = function, exports.f = function; the
; refine hook decides which assignments are declarations.
(expression_statement
  (assignment_expression
    left: (member_expression
      property: (property_identifier) @name)
    right: [(function_expression body: (_) @body)
            (arrow_function body: (_) @body)
            (generator_function body: (_) @body)]) @definition.function)

; res.set = res.header = function header(): the function is named after
; the first target.
(expression_statement
  (assignment_expression
    left: (member_expression
      property: (property_identifier) @name)
    right: (assignment_expression
      right: [(function_expression body: (_) @body)
              (arrow_function body: (_) @body)
              (generator_function body: (_) @body)])) @definition.function)

; exports.Codec = {encode() {}}, module.exports = {…}, Foo.prototype = {…},
; exports.Client = class {}, module.exports = class Agent {}; the refine
; hook keeps CommonJS exports and prototypes only.
(expression_statement
  (assignment_expression
    left: (member_expression
      property: (property_identifier) @name)
    right: (object) @body) @definition.object)

(expression_statement
  (assignment_expression
    left: (member_expression
      property: (property_identifier) @name)
    right: (class body: (_) @body)) @definition.class)

; f = function () {}, obj = {m() {}}: a name assigned a function or an
; object literal holding one (the refine hook applies the rules of const).
(expression_statement
  (assignment_expression
    left: (identifier) @name
    right: [(function_expression body: (_) @body)
            (arrow_function body: (_) @body)
            (generator_function body: (_) @body)]) @definition.function)

(expression_statement
  (assignment_expression
    left: (identifier) @name
    right: (object) @body) @definition.object)

; ---- Function and class expressions no declaration above binds:
; callbacks, IIFEs, returned functions, named function expressions,
; anonymous classes, and object literals holding a function (an
; options object passed to a call). The refine hook drops those a
; declaration binds (const f = () => …, k: function () {}) and names the
; others by where they are: "<callback of app.get('/users')>", "<iife>",
; "<returned>".
(arrow_function body: (_) @body) @definition.function @name
(function_expression body: (_) @body) @definition.function @name
(generator_function body: (_) @body) @definition.function @name
(class body: (_) @body) @definition.class @name
(object) @definition.object @name @body

; ---- Members of classes and objects. The refine hook drops members of a
; class or object that is not a symbol itself.

(method_definition
  name: (_) @name) @definition.function

(field_definition
  property: (_) @name
  value: [(arrow_function body: (_) @body)
          (function_expression body: (_) @body)
          (generator_function body: (_) @body)]) @definition.function

(pair
  key: (_) @name
  value: [(arrow_function body: (_) @body)
          (function_expression body: (_) @body)
          (generator_function body: (_) @body)]) @definition.function

; Object literals: const api = {get() {}} (also frozen: Object.freeze({…}))
; and keys of such objects: {methods: {save() {}}}. The refine hook keeps
; those holding a function, directly or one object down.
(variable_declarator
  name: (identifier) @name
  value: [(object) @body
          (call_expression
            function: (member_expression)
            arguments: (arguments . (object) @body .))]) @definition.object

(pair
  key: (_) @name
  value: (object) @body) @definition.object

; ---- Calls: f(), a.b.f(), this.#f(), super(), new F(), new a.F().

(call_expression
  function: (identifier) @call.name
  arguments: (_)? @call.args) @call

(call_expression
  function: (member_expression
    object: (_) @call.receiver
    property: [(property_identifier) (private_property_identifier)] @call.name)
  arguments: (_)? @call.args) @call

; (0, _parser.parse)(source): Babel's and TypeScript's CommonJS call an
; imported function so, without `this`; the call is of the last name.
(call_expression
  function: (parenthesized_expression
    (sequence_expression
      . (number)
      . (member_expression
        object: (_) @call.receiver
        property: (property_identifier) @call.name) .))
  arguments: (_)? @call.args) @call

(call_expression
  function: (parenthesized_expression
    (sequence_expression . (number) . (identifier) @call.name .))
  arguments: (_)? @call.args) @call

(call_expression
  function: (super) @call.name
  arguments: (_)? @call.args) @call

(new_expression
  constructor: (identifier) @call.name
  arguments: (_)? @call.args) @call

(new_expression
  constructor: (member_expression
    object: (_) @call.receiver
    property: (property_identifier) @call.name)
  arguments: (_)? @call.args) @call

; routes[0](), handlers[name](): the element is called.
(call_expression
  function: (subscript_expression) @call.callee
  arguments: (_)? @call.args) @call

; ---- Bindings a call graph follows: a name bound to an instance
; (new C()), another name or path, an object literal, an array, a call's
; result or a choice among these; and what a function returns.
; Functions and classes bound to names are declarations instead.

(variable_declarator
  name: (identifier) @bind.target
  value: [(new_expression) (identifier) (member_expression) (object) (array)
          (call_expression) (await_expression) (ternary_expression)
          (binary_expression) (parenthesized_expression)] @bind.value) @bind

(assignment_expression
  left: (identifier) @bind.target
  right: [(new_expression) (identifier) (member_expression) (object) (array)
          (call_expression) (await_expression) (ternary_expression)
          (binary_expression) (parenthesized_expression)] @bind.value) @bind

; Hash.prototype.clear = hashClear: the method of an ES5 constructor
; is a function declared elsewhere (target "Hash.prototype.clear"); a
; chain (A.prototype.add = A.prototype.push = f) binds each.
(assignment_expression
  left: (member_expression
    object: (member_expression
      object: (identifier)
      property: (property_identifier) @_proto)
    property: (property_identifier)) @bind.target
  right: [(identifier) (member_expression) (assignment_expression)] @bind.value
  (#eq? @_proto "prototype")) @bind

; Stack.prototype['delete'] = stackDelete: the same, with a string key
; (a reserved word in ES3).
(assignment_expression
  left: (subscript_expression
    object: (member_expression
      object: (identifier)
      property: (property_identifier) @_proto)
    index: (string)) @bind.target
  right: [(identifier) (member_expression) (assignment_expression)] @bind.value
  (#eq? @_proto "prototype")) @bind

; this.x = new C() in a method, and the class field x = new C(): what
; this.x holds.
(assignment_expression
  left: (member_expression
    object: (this)
    property: (property_identifier)) @bind.target
  right: [(new_expression) (identifier) (member_expression) (object) (array)
          (call_expression) (await_expression) (ternary_expression)
          (binary_expression) (parenthesized_expression)] @bind.value) @bind

(field_definition
  property: (property_identifier) @bind.target
  value: [(new_expression) (identifier) (member_expression) (object) (array)
          (call_expression) (await_expression) (ternary_expression)
          (binary_expression) (parenthesized_expression)] @bind.value) @bind

; for (const x of items): x takes the elements of items.
(for_in_statement
  left: (identifier) @bind.target
  operator: "of"
  right: [(identifier) (member_expression) (array) (call_expression)] @bind.iter) @bind

; return new C(): what a factory returns ("<return>").
(return_statement
  [(new_expression) (identifier) (member_expression) (object) (array)
   (call_expression) (await_expression) (ternary_expression)
   (binary_expression) (parenthesized_expression)] @bind.value) @bind
