; Lua: function statements (global, local, dotted M.f and M:m), functions
; bound to names (local f = function, M.f = function, fields of a table
; constructor assigned to a name or returned by the module), require and
; calls. Names, parents and kinds are split in lang_lua.go.

(function_statement
  name: [(function_name) (identifier)] @name) @definition.function

; local f = function, f = function, M.f = function (documentation may
; precede the name as children; refine drops `a, f = x, function`).
(variable_declaration
  name: (variable_declarator) @name
  .
  value: (function)) @definition.function

(variable_declaration
  value: (tableconstructor
    (fieldlist
      (field
        name: (identifier) @name
        value: (function)) @definition.function)))

(module_return_statement
  (tableconstructor
    (fieldlist
      (field
        name: (identifier) @name
        value: (function)) @definition.function)))

; require "x" / require("x"). The grammar lexes the first token of a
; top-level statement together with the whitespace before it ("\nrequire"),
; so top-level calls are matched without a predicate and checked in
; luaImports.
((function_call
   . (identifier) @_r
   . (function_call_paren)
   . (function_arguments . (string) .)) @import
 (#eq? @_r "require"))

((function_call
   . (identifier) @_r
   . (string_argument)) @import
 (#eq? @_r "require"))

(program
  (function_call
    . (identifier)
    . [(function_call_paren) (string_argument)]) @import)

; Calls. The grammar gives a.b.c() as a flat list of identifiers (only
; the first has the field prefix), so the
; receiver is the segment just before the name (b), or the call before it
; (a:b():c() has receiver a:b()).
(function_call
  . (identifier) @call.name
  . [(function_call_paren) (string_argument) (table_argument)]) @call

(function_call
  [(identifier) (function_call)] @call.receiver
  . (identifier) @call.name
  . [(function_call_paren) (string_argument) (table_argument)]) @call

(function_call
  [(number) (string) (right_paren)]
  . (identifier) @call.name
  . [(function_call_paren) (string_argument) (table_argument)]) @call

(function_call
  [(identifier) (function_call)] @call.receiver
  . (self_call_colon)
  . (identifier) @call.name) @call

(function_call
  [(number) (string) (right_paren)]
  . (self_call_colon)
  . (identifier) @call.name) @call

; Anonymous functions: places (File.Places) outside named functions.
(function) @place
